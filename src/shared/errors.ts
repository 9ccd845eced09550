/** The errors services throw; each names its entry in the one catalog (error-catalog.ts). */
import { ERROR_CATALOG, type CatalogEntry, type ErrorKind, type FieldError } from './error-catalog.ts';

export { ERROR_CATALOG, type CatalogEntry, type ErrorKind, type FieldError } from './error-catalog.ts';

/** The code, status, title and default public detail of a catalog entry. */
export function catalogEntry(kind: ErrorKind): Required<CatalogEntry> {
  const entry: CatalogEntry = ERROR_CATALOG[kind];
  return { ...entry, code: entry.code ?? kind };
}

/**
 * A catalogued failure. `detail` replaces the entry's public detail where the thrower knows more
 * (which field, which permission); it is sent to the client, so it must be public too.
 */
export class AirkeyError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  constructor(kind: ErrorKind, detail?: string, options?: ErrorOptions) {
    const entry = catalogEntry(kind);
    super(detail ?? entry.detail, options);
    this.status = entry.status;
    this.code = entry.code;
    this.title = entry.title;
  }
}

export class InvalidRequestError extends AirkeyError {
  readonly errors: FieldError[];
  constructor(errors: FieldError[], detail?: string) {
    super('invalid_request', detail);
    this.errors = errors;
  }
  static field(path: string, message: string): InvalidRequestError {
    return new InvalidRequestError([{ path, message }], message);
  }
}

/** The four rejections of a key, plus the missing and ambiguous cases, share one shape. */
export type KeyRejection =
  'api_key_missing' | 'api_key_ambiguous' | 'api_key_invalid' | 'api_key_disabled' | 'api_key_expired';

export class KeyRejectedError extends AirkeyError {
  declare readonly code: KeyRejection;
  constructor(code: KeyRejection) {
    super(code);
  }
}

/** An access token (docs/oauth.md) that is not live for the resource it was sent to (RFC 6750 `invalid_token`). */
export class InvalidTokenError extends AirkeyError {
  constructor() {
    super('invalid_token');
  }
}

/**
 * A valid key used from an address outside its allowlist (docs/keys.md (IP allowlists)). The
 * detail names the address as the server saw it: a caller behind an unexpected NAT or proxy can
 * then tell why. It is the caller's own address, so it reveals nothing they do not know.
 */
export class IpNotAllowedError extends AirkeyError {
  readonly client: string;
  constructor(client: string) {
    super(
      'api_key_ip_not_allowed',
      `This API key may not be used from ${client === '' ? 'an unknown address' : client}: it is outside the key's allowed_ips.`,
    );
    this.client = client;
  }
}

/** A webhook URL aimed at something that must not receive requests from us (docs/webhooks.md). */
export class WebhookUrlRejectedError extends AirkeyError {
  /** Like every 400, the field it is about. */
  readonly errors: FieldError[];
  constructor(reason: string) {
    super('webhook_url_rejected', `url: ${reason} Webhooks go to public https: addresses only.`);
    this.errors = [{ path: 'url', message: reason }];
  }
}

/**
 * A create, roll or change the tenant's key policy refuses (docs/keys.md (Key policy)): each
 * broken rule is listed in `errors` under its field, and the detail names field and rule.
 */
export class KeyPolicyViolationError extends AirkeyError {
  readonly errors: FieldError[];
  readonly rules: string[];
  constructor(violations: ReadonlyArray<{ path: string; rule: string; message: string }>, advice?: string) {
    const named = violations.map((violation) => `${violation.path} (${violation.rule})`).join(', ');
    const first = violations[0]?.message ?? '';
    super(
      'key_policy_violation',
      [`This breaks the tenant's key policy: ${named}.`, first, advice ?? ''].join(' ').trim(),
    );
    this.errors = violations.map(({ path, message }) => ({ path, message }));
    this.rules = violations.map((violation) => violation.rule);
  }
}

export class NotAuthenticatedError extends AirkeyError {
  constructor() {
    super('not_authenticated');
  }
}

export class InvalidCredentialsError extends AirkeyError {
  constructor() {
    super('invalid_credentials');
  }
}

export class PermissionDeniedError extends AirkeyError {
  readonly permission: string;
  constructor(permission: string, detail?: string) {
    super('permission_denied', detail ?? `This action needs the permission ${permission}.`);
    this.permission = permission;
  }
}

export class CsrfRejectedError extends AirkeyError {
  constructor() {
    super('csrf_rejected');
  }
}

/** A browser page from a foreign origin called /mcp: refused before the key is even looked at. */
export class OriginRejectedError extends AirkeyError {
  constructor() {
    super('origin_rejected');
  }
}

export class NotFoundError extends AirkeyError {
  constructor(what = 'resource') {
    super('not_found', `The ${what} does not exist.`);
  }
}

export type ConflictCode =
  | 'api_key_expired'
  | 'creator_deleted'
  | 'api_key_leaked'
  | 'api_key_limit_reached'
  | 'webhook_limit_reached'
  | 'webhook_disabled'
  | 'email_taken'
  | 'slug_taken'
  | 'domain_taken'
  | 'last_system_administrator';

/** A transition the resource's state does not allow (409). */
export class ConflictError extends AirkeyError {
  declare readonly code: ConflictCode;
  constructor(code: ConflictCode, detail?: string) {
    super(code === 'api_key_expired' ? 'api_key_expired_transition' : code, detail);
  }
}

/** A wrong TOTP code, recovery code or passkey answer (or one already used). */
export class InvalidSecondFactorError extends AirkeyError {
  constructor() {
    super('invalid_second_factor');
  }
}

/** A wrong code while confirming a new authenticator app: 400, naming the field. */
export class InvalidEnrolmentCodeError extends AirkeyError {
  readonly errors: FieldError[];
  constructor() {
    super('invalid_second_factor_code');
    this.errors = [{ path: 'code', message: 'The code does not match: type the code your app shows now.' }];
  }
}

/** A session past its idle or absolute limit (docs/sign-in.md (Sessions)). */
export class SessionExpiredError extends AirkeyError {
  constructor() {
    super('session_expired');
  }
}

/** A sensitive action outside the re-authentication window (REAUTH_MINUTES). */
export class ReauthenticationRequiredError extends AirkeyError {
  constructor() {
    super('reauthentication_required');
  }
}

/** An enrolment-only session (the tenant requires a second factor the user lacks) asked for anything else. */
export class SecondFactorRequiredError extends AirkeyError {
  constructor() {
    super('second_factor_required');
  }
}

/** Removing a user's last second factor while their tenant requires one (409 `second_factor_required`). */
export class LastSecondFactorError extends AirkeyError {
  constructor() {
    super('last_second_factor');
  }
}

/** The relying party would be an IP address, which WebAuthn does not allow. */
export class PasskeysUnavailableError extends AirkeyError {
  constructor() {
    super('passkeys_unavailable');
  }
}

/** Password or passkey sign-in on a tenant that signs in through its identity provider only. */
export class SsoRequiredError extends AirkeyError {
  constructor() {
    super('sso_required');
  }
}

/** Too many failures from one client (429 with Retry-After). */
export class TooManyRequestsError extends AirkeyError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('too_many_requests', `Too many failed attempts from this client. Retry in ${retryAfterSeconds} s.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The database could not be reached: never reported as an invalid key. */
export class UnavailableError extends AirkeyError {
  constructor(options?: { cause?: unknown }) {
    super('unavailable', undefined, options);
  }
}

/**
 * Builds an error without a stack trace, for the key check's refusals (src/http/admission-answer.ts):
 * they are answers, not faults, built once and shared by every request that gets them, so a stack
 * would only show the first request that needed one. Every field the problem body needs is there.
 */
export function withoutStack<E extends Error>(build: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
