/**
 * The one catalog of failures airkey reports. Each class carries its public code and HTTP
 * status; the HTTP error handler (src/http/problem.ts) is the only place that turns them into
 * RFC 9457 bodies. Messages here are public: never put a secret, SQL or a stack into one.
 */
export type FieldError = { path: string; message: string };

export abstract class AirkeyError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
}

export class InvalidRequestError extends AirkeyError {
  readonly status = 400;
  readonly code = 'invalid_request';
  readonly title = 'Invalid request';
  constructor(
    readonly errors: FieldError[],
    detail = 'One or more fields are invalid.',
  ) {
    super(detail);
  }
  static field(path: string, message: string): InvalidRequestError {
    return new InvalidRequestError([{ path, message }], message);
  }
}

/** The four rejections of a key, plus the missing and ambiguous cases, share one shape. */
export type KeyRejection =
  'api_key_missing' | 'api_key_ambiguous' | 'api_key_invalid' | 'api_key_disabled' | 'api_key_expired';

const keyRejectionText: Record<KeyRejection, { status: number; title: string; detail: string }> = {
  api_key_missing: { status: 401, title: 'API key missing', detail: 'Send your API key in the X-API-Key header.' },
  api_key_ambiguous: {
    status: 400,
    title: 'Ambiguous API key',
    detail: 'The request carries two different API keys; send exactly one.',
  },
  api_key_invalid: { status: 401, title: 'Invalid API key', detail: 'The API key is malformed, unknown or deleted.' },
  api_key_disabled: { status: 401, title: 'API key disabled', detail: 'The API key is disabled.' },
  api_key_expired: {
    status: 401,
    title: 'API key expired',
    detail: 'The API key has expired. Create a new key to restore access.',
  },
};

export class KeyRejectedError extends AirkeyError {
  readonly status: number;
  readonly title: string;
  constructor(readonly code: KeyRejection) {
    const text = keyRejectionText[code];
    super(text.detail);
    this.status = text.status;
    this.title = text.title;
  }
}

/** A webhook URL aimed at something that must not receive requests from us (docs/webhooks.md). */
export class WebhookUrlRejectedError extends AirkeyError {
  readonly status = 400;
  readonly code = 'webhook_url_rejected';
  readonly title = 'Webhook URL rejected';
  constructor(reason: string) {
    super(`url: ${reason} Webhooks go to public https: addresses only.`);
  }
}

export class NotAuthenticatedError extends AirkeyError {
  readonly status = 401;
  readonly code = 'not_authenticated';
  readonly title = 'Not signed in';
  constructor() {
    super('Sign in to the back office first.');
  }
}

export class InvalidCredentialsError extends AirkeyError {
  readonly status = 401;
  readonly code = 'invalid_credentials';
  readonly title = 'Invalid credentials';
  constructor() {
    super('The e-mail or password is wrong.');
  }
}

export class PermissionDeniedError extends AirkeyError {
  readonly status = 403;
  readonly code = 'permission_denied';
  readonly title = 'Permission denied';
  constructor(
    readonly permission: string,
    detail?: string,
  ) {
    super(detail ?? `This action needs the permission ${permission}.`);
  }
}

export class CsrfRejectedError extends AirkeyError {
  readonly status = 403;
  readonly code = 'csrf_rejected';
  readonly title = 'CSRF check failed';
  constructor() {
    super('Mutating requests need the X-CSRF-Token header of your session and must come from this origin.');
  }
}

/** A browser page from a foreign origin called /mcp: refused before the key is even looked at. */
export class OriginRejectedError extends AirkeyError {
  readonly status = 403;
  readonly code = 'origin_rejected';
  readonly title = 'Origin not allowed';
  constructor() {
    super('Requests to /mcp from this Origin are not allowed. Add it to MCP_ALLOWED_ORIGINS to allow it.');
  }
}

export class NotFoundError extends AirkeyError {
  readonly status = 404;
  readonly code = 'not_found';
  readonly title = 'Not found';
  constructor(what = 'resource') {
    super(`The ${what} does not exist.`);
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
  | 'last_system_administrator';

export class ConflictError extends AirkeyError {
  readonly status = 409;
  readonly title = 'Conflict';
  constructor(
    readonly code: ConflictCode,
    detail: string,
  ) {
    super(detail);
  }
}

export class TooManyRequestsError extends AirkeyError {
  readonly status = 429;
  readonly code = 'too_many_requests';
  readonly title = 'Too many requests';
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed attempts from this client. Retry in ${retryAfterSeconds} s.`);
  }
}

/** The database could not be reached: never reported as an invalid key. */
export class UnavailableError extends AirkeyError {
  readonly status = 503;
  readonly code = 'unavailable';
  readonly title = 'Service unavailable';
  constructor(options?: { cause?: unknown }) {
    super('The service cannot reach its database right now. Retry shortly.', options);
  }
}

/**
 * Builds an error without a stack trace, for the key check's refusals (src/keys/authenticate.ts):
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
