/**
 * The one catalog of failures airkey reports: each entry's code, HTTP status, title and public
 * detail. src/problems/problem.ts turns an entry into RFC 9457 problem details and declares none of
 * its own. Everything here is public: never a secret, SQL or a stack. What only operators may see
 * goes in the error's `cause`, which is logged and never sent.
 */
export type FieldError = { path: string; message: string };

export type CatalogEntry = { status: number; title: string; detail: string; code?: string };

export const ERROR_CATALOG = {
  bad_request: { status: 400, title: 'Bad request', detail: 'The request could not be processed.' },
  invalid_request: { status: 400, title: 'Invalid request', detail: 'One or more fields are invalid.' },
  api_key_ambiguous: {
    status: 400,
    title: 'Ambiguous API key',
    detail: 'The request carries two different API keys; send exactly one.',
  },
  webhook_url_rejected: {
    status: 400,
    title: 'Webhook URL rejected',
    detail: 'A webhook URL must use https: and must not name a loopback, private or link-local address.',
  },
  key_policy_violation: {
    status: 400,
    title: 'Key policy violation',
    detail: "The change breaks the tenant's key policy.",
  },
  api_key_missing: { status: 401, title: 'API key missing', detail: 'Send your API key in the X-API-Key header.' },
  api_key_invalid: { status: 401, title: 'Invalid API key', detail: 'The API key is malformed, unknown or deleted.' },
  api_key_disabled: { status: 401, title: 'API key disabled', detail: 'The API key is disabled.' },
  api_key_expired: {
    status: 401,
    title: 'API key expired',
    detail: 'The API key has expired. Create a new key to restore access.',
  },
  // RFC 6750's code, as docs/oauth.md names it: a bearer value that is no key and no live access token for this resource.
  invalid_token: {
    status: 401,
    title: 'Invalid access token',
    detail: 'The access token is unknown, expired, revoked, or for another resource. Sign in again through your app.',
  },
  not_authenticated: { status: 401, title: 'Not signed in', detail: 'Sign in to the back office first.' },
  invalid_credentials: { status: 401, title: 'Invalid credentials', detail: 'The e-mail or password is wrong.' },
  invalid_second_factor: {
    status: 401,
    title: 'Invalid second factor',
    detail: 'The code or passkey was not accepted: it is wrong, expired or already used.',
  },
  // The 400 of `invalid_second_factor`: a wrong code while adding an authenticator app (a form's mistake).
  invalid_second_factor_code: {
    status: 400,
    title: 'Invalid code',
    detail: 'The code does not match the new authenticator app: check its clock and type the current code.',
    code: 'invalid_second_factor',
  },
  session_expired: {
    status: 401,
    title: 'Session expired',
    detail: 'Your session has ended (too long idle, or signed in too long ago). Sign in again.',
  },
  api_key_ip_not_allowed: {
    status: 403,
    title: 'Address not allowed',
    detail: 'This API key may not be used from this address.',
  },
  permission_denied: { status: 403, title: 'Permission denied', detail: 'This action needs a permission you lack.' },
  csrf_rejected: {
    status: 403,
    title: 'CSRF check failed',
    detail: 'Mutating requests need the X-CSRF-Token header of your session and must come from this origin.',
  },
  origin_rejected: {
    status: 403,
    title: 'Origin not allowed',
    detail: 'Requests to /mcp from this Origin are not allowed. Add it to MCP_ALLOWED_ORIGINS to allow it.',
  },
  reauthentication_required: {
    status: 403,
    title: 'Re-authentication required',
    detail: 'This action needs you to confirm who you are again: re-authenticate, then repeat it.',
  },
  second_factor_required: {
    status: 403,
    title: 'Second factor required',
    detail: 'Your organisation requires a second factor: add an authenticator app or a passkey first.',
  },
  sso_required: {
    status: 403,
    title: 'Single sign-on required',
    detail: "This organisation signs in through its identity provider: use 'Sign in with SSO'.",
  },
  not_found: { status: 404, title: 'Not found', detail: 'The resource does not exist.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', detail: 'This method is not allowed here.' },
  not_acceptable: { status: 406, title: 'Not acceptable', detail: 'The requested representation is not available.' },
  request_timeout: { status: 408, title: 'Request timeout', detail: 'The request was not received in time.' },
  // The one code with two statuses (docs/api.md (errors)): 401 when a request presents an expired
  // key, 409 when a change to an expired key is refused. Both are `api_key_expired` on the wire.
  api_key_expired_transition: {
    status: 409,
    title: 'Conflict',
    detail: 'The key has expired; create a new key instead.',
    code: 'api_key_expired',
  },
  creator_deleted: { status: 409, title: 'Conflict', detail: "The key's creator no longer exists." },
  api_key_leaked: { status: 409, title: 'Conflict', detail: 'The key was reported leaked and stays disabled.' },
  api_key_limit_reached: { status: 409, title: 'Conflict', detail: 'The tenant has as many keys as it may have.' },
  email_taken: { status: 409, title: 'Conflict', detail: 'A user with this e-mail exists.' },
  slug_taken: { status: 409, title: 'Conflict', detail: 'A tenant with this slug exists.' },
  domain_taken: {
    status: 409,
    title: 'Conflict',
    detail: "Another tenant's single sign-on allows this e-mail domain; an operator can move it (docs/sso.md).",
  },
  last_system_administrator: {
    status: 409,
    title: 'Conflict',
    detail: 'This is the last System Administrator of the tenant; make someone else one first.',
  },
  // The 409 of `second_factor_required`: removing the last factor while the tenant requires one.
  last_second_factor: {
    status: 409,
    title: 'Second factor required',
    detail: 'Your organisation requires a second factor: add another one before removing this one.',
    code: 'second_factor_required',
  },
  passkeys_unavailable: {
    status: 409,
    title: 'Passkeys unavailable here',
    detail:
      'Passkeys need the back office on a host name, not an IP address: open it at http://localhost or set PUBLIC_URL.',
  },
  webhook_limit_reached: {
    status: 409,
    title: 'Webhook limit reached',
    detail: 'The tenant has as many webhook endpoints as it may have; delete one first.',
  },
  webhook_disabled: {
    status: 409,
    title: 'Webhook disabled',
    detail: 'This endpoint is disabled: enable it before sending it a test event.',
  },
  payload_too_large: { status: 413, title: 'Payload too large', detail: 'The request body is too large.' },
  uri_too_long: {
    status: 414,
    title: 'URI too long',
    detail: 'The request URL or one of its path parameters is too long.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    detail: 'Send the body as application/json.',
  },
  too_many_requests: {
    status: 429,
    title: 'Too many requests',
    detail: 'Too many failed attempts from this client. Retry after the time in Retry-After.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    detail:
      "This API key has used its rate limit's requests for the current window. Retry after the time in Retry-After.",
  },
  quota_exceeded: {
    status: 429,
    title: 'Quota exceeded',
    detail: "This API key has used its quota's requests for the current period.",
  },
  request_header_fields_too_large: {
    status: 431,
    title: 'Request header fields too large',
    detail: 'The request headers are too large.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    detail: 'Something went wrong on our side. It has been logged.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    detail: 'The service cannot reach its database right now. Retry shortly.',
  },
} as const satisfies Record<string, CatalogEntry>;

/** An entry of the catalog; its wire `code` is the same word except where the entry says otherwise. */
export type ErrorKind = keyof typeof ERROR_CATALOG;

/** Each names only its own period: a day's refusal says nothing of credits that never refill. */
export const QUOTA_EXCEEDED_DETAILS = {
  day: "This key has used its quota for today (UTC). Retry-After says when tomorrow's count starts.",
  month: "This key has used its quota for this month (UTC). Retry-After says when next month's count starts.",
  total: "This key has used its quota: a 'total' quota is the key's whole allowance and does not refill.",
} as const;
