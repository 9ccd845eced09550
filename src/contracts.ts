/**
 * The server's contracts the back office (web/) builds on, in one place, reached there as
 * `@contracts`. Types (derived from the per-feature zod schemas) tie the web to the server at
 * type-check time; the few values below are pure rules with no imports of their own (no zod, no
 * services), bundled so each rule has one definition.
 */
export type {
  ApiKeyView,
  CreatedKey,
  CreateKeyInput,
  KeyList,
  RolledKey,
  RollKeyInput,
  RollOverlap,
  UpdateKeyInput,
  createKeyBodySchema,
} from './keys/key-schemas.ts';
export type {
  NewUser,
  UserChanges,
  UserListItem,
  UserView,
  createUserBodySchema,
  updateUserBodySchema,
  userSchema,
} from './users/user-schemas.ts';
export type { SecondFactorStep, SessionListItem, SignedIn } from './sessions/session-schemas.ts';
export type { PasskeyView, SecondFactorsView } from './second-factors/second-factor-schemas.ts';
export type { SignInSettings, SignInSettingsPatch } from './tenants/sign-in-settings-schemas.ts';
export type { SsoSettings, SsoSettingsInput } from './tenants/sso-settings-schemas.ts';
export type { SsoTestResult } from './sso/sso-schemas.ts';
// Why a single sign-on was refused, as the sign-in page reads `?reason=`: a pure table without imports.
export { SSO_REFUSALS } from './sso/sso-refusals.ts';
export type { SecondFactorRequirement } from './shared/second-factor-requirement.ts';
export type { AuditEventView, AuditPage } from './audit/audit-schemas.ts';
export type {
  CreatedWebhook,
  CreateWebhookInput,
  DeliveryAttempt,
  DeliveryPage,
  DeliveryView,
  RotatedSecret,
  TestDelivery,
  UpdateWebhookInput,
  WebhookList,
  WebhookView,
} from './webhooks/webhook-schemas.ts';
export type { WebhookEventType } from './shared/event-types.ts';
// The event types an endpoint may choose, for the page's checkboxes: a pure list without imports.
export { WEBHOOK_EVENT_TYPES } from './shared/event-types.ts';
export type { TenantUsage, TopKey, Usage, UsageBucket, UsageQuery, UsageWindow } from './usage/usage-schemas.ts';
export type {
  RequestLogEntry,
  RequestLogFilter,
  RequestLogPage,
  RequestOutcome,
} from './request-log/request-log-schemas.ts';
export type { FieldError, Problem } from './problems/problem-schema.ts';
export type { problemSchema } from './problems/problem-schema.ts';
export type { KeyAuthority } from './shared/actor.ts';
export type { Principal } from './shared/principal.ts';
export type { Permission, Role } from './shared/roles.ts';

// The role → permission table, which the back office uses to show only the pages a user may open
// (the server checks every call regardless). A value, not a type: a pure module without imports,
// bundled so the table has one definition.
export { permissionsOf } from './shared/roles.ts';
// Which page needs which permission: the server's own table.
export { BACKOFFICE_PAGES, type BackofficePath } from './shared/pages.ts';
// The key policy's rule, so the page marks keys outside it and the roll dialog asks for an expiry
// exactly when the server would refuse one: a pure module without imports.
export {
  DEFAULT_KEY_POLICY,
  expiryViolations,
  latestExpiryAllowed,
  policyViolations,
  utcDate,
  type KeyPolicy,
  type KeyPolicyRule,
  type PolicyViolation,
} from './keys/policy/key-policy.ts';
// The rule for a display name, so the dialog says what the server would; the password's length.
export { NAME_MAX, nameProblem, PASSWORD_MAX, PASSWORD_MIN } from './shared/text-rules.ts';
// The rule for an allowlist entry (it brings ipaddr.js, a small dependency-free parser, along):
// each line is judged as typed, in the server's words.
export { ipEntryProblem, MAX_ALLOWED_IPS } from './shared/ip-entries.ts';
export type { ClientAddress } from './http/routes/backoffice-client-address.ts';
export type { ConsentView } from './oauth/consent-schemas.ts';
export type { OAuthGrantView } from './oauth/grant-schemas.ts';
export type { OAuthAppsSetting } from './shared/oauth-apps.ts';
