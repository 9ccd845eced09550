import { z } from 'zod';
import { pageSize } from '../shared/page-size.ts';

export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.enabled',
  'api_key.disabled',
  'api_key.deleted',
  'api_key.expired',
  'api_key.rolled',
  'api_key.leaked',
  'api_key.rate_limit_changed',
  'api_key.allowed_ips_changed',
  'api_key.quota_changed',
  'api_key.quota_reset',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'user.signed_in',
  'user.sign_in_failed',
  'user.sign_in_locked',
  'user.created',
  'user.roles_changed',
  'user.deleted',
  'user.second_factor_added',
  'user.second_factor_removed',
  'user.recovery_codes_regenerated',
  'user.password_changed',
  'user.sessions_ended',
  'user.sso_identity_unlinked',
  'user.roles_change_refused',
  'tenant.authority_changed',
  'tenant.key_policy_changed',
  'tenant.sign_in_settings_changed',
  'oauth.client_registered',
  'oauth.app_approved',
  'oauth.app_denied',
  'oauth.grant_revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditTargetSchema = z.object({
  type: z.enum(['api_key', 'user', 'tenant', 'webhook', 'oauth_client']),
  id: z.string().nullable(),
  name: z.string().nullable(),
});
export type AuditTarget = z.infer<typeof auditTargetSchema>;

/** One entry of the trail (`GET /backoffice/api/audit-events`). */
export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ type: z.enum(['user', 'system']), id: z.string().nullable(), email: z.string().nullable() }),
  action: z.string(),
  target: auditTargetSchema,
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({ data: z.array(auditEventSchema), next_cursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditQuerySchema = z.object({
  limit: pageSize(200),
  cursor: z.string().max(512).optional(),
});
