import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { admit, type AdmissionDeps } from '../admission/admit.ts';
import type { Admission, Admitted } from '../admission/outcome.ts';
import type { LimitFields } from '../limits/index.ts';
import { problemFor, sendProblem } from '../problems/problem.ts';
import {
  InvalidTokenError,
  IpNotAllowedError,
  KeyRejectedError,
  TooManyRequestsError,
  UnavailableError,
  withoutStack,
  type AirkeyError,
  type KeyRejection,
} from '../shared/errors.ts';
import { QuotaExceededError, RateLimitedError } from '../shared/limit-errors.ts';
import { recordKeyCheck } from '../telemetry/spans/key-check-attributes.ts';
import { sendError } from './problem.ts';
import { queryKeysOf } from './redaction.ts';

/**
 * The admission (src/admission/admit.ts) in front of `/api/v1` and `/mcp`: the principal lands on
 * `request.principal`, a refusal is answered from here as problem details (sendError, as the error
 * handler would, minus Fastify's error path). Callback style on purpose: a cached key under limits
 * this instance holds budget for, and a client known to be blocked, are answered without creating
 * a single promise or throwing. MCP takes this hook from the app (`app.admissionHook`): its
 * refusals are the same HTTP answers as the API's.
 */
export function admissionHook(deps: AdmissionDeps) {
  return function admitRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let outcome: Admission | Promise<Admission>;
    try {
      outcome = admit(
        deps,
        {
          xApiKey: request.headers['x-api-key'],
          authorization: request.headers.authorization,
          queryKey: queryKeysOf(request.raw),
          path: request.url,
        },
        request.client,
        // A refused key of a tenant lands on `request.refusedKey`, for the request log.
        request,
      );
    } catch (error) {
      return done(error as Error);
    }
    if (outcome instanceof Promise) outcome.then((settled) => answer(request, reply, done, settled), done);
    else answer(request, reply, done, outcome);
  };
}

/**
 * The one mapping of an admission's outcome to HTTP: the status, the problem, the RateLimit header
 * fields (draft-ietf-httpapi-ratelimit-headers) and Retry-After. Module-level, not a closure per
 * request. A hook that sends the reply does not call `done` (Fastify, Hooks: respond from a hook).
 */
function answer(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, outcome: Admission): void {
  switch (outcome.status) {
    case 'admitted':
      recordKeyCheck(outcome);
      request.principal = outcome.principal;
      if (outcome.fields !== undefined) setFields(reply, outcome.fields);
      if (outcome.limitsSeen !== undefined) request.limitsSeen = outcome.limitsSeen;
      return done();
    case 'rate_limited':
    case 'quota_exceeded':
    case 'quota_unavailable':
      // The key check accepted the key: its span and log name it, and the refusal is the limit's.
      recordKeyCheck(outcome.key);
      request.principal = outcome.key.principal;
      setFields(reply, outcome.fields);
      if (outcome.status === 'quota_unavailable') {
        request.problemCode = 'unavailable';
        return void sendProblem(reply, QUOTA_UNAVAILABLE);
      }
      if (outcome.retryAfterSeconds !== undefined) reply.header('retry-after', String(outcome.retryAfterSeconds));
      if (outcome.status === 'rate_limited') return void sendError(request, reply, RATE_LIMITED);
      return void sendError(request, reply, QUOTA_EXCEEDED[outcome.period]);
    default: {
      const error = errorOf(outcome);
      recordKeyCheck(error);
      return void sendError(request, reply, error);
    }
  }
}

function setFields(reply: FastifyReply, fields: LimitFields): void {
  // Lowercase, as Fastify stores and sends them: a name it must lowercase is a new string per response.
  reply.header('ratelimit-policy', fields.policy);
  reply.header('ratelimit', fields.current);
}

type CredentialRefusal = Exclude<Admission, Admitted | { key: unknown }>;

// Refusals are answers, not faults, and they all look alike: one frozen error per outcome, built
// once without a stack, so a refusal allocates nothing and its body is serialised once
// (sendError): building one per request shows in a flood's CPU profile (docs/performance.md).
// The outcomes that carry a value (a wait, an address) are themselves shared, so they key a WeakMap.
const REJECTIONS: Record<
  'missing_credential' | 'ambiguous_credential' | 'invalid' | 'disabled' | 'expired',
  KeyRejection
> = {
  missing_credential: 'api_key_missing',
  ambiguous_credential: 'api_key_ambiguous',
  invalid: 'api_key_invalid',
  disabled: 'api_key_disabled',
  expired: 'api_key_expired',
};
const errors = new WeakMap<CredentialRefusal, AirkeyError>();

function errorOf(outcome: CredentialRefusal): AirkeyError {
  // A fault, not a refusal: its own instance, with its cause, logged by sendError.
  if (outcome.status === 'unavailable') return new UnavailableError({ cause: outcome.cause });
  let error = errors.get(outcome);
  if (!error) errors.set(outcome, (error = Object.freeze(withoutStack(() => build(outcome)))));
  return error;
}

function build(outcome: Exclude<CredentialRefusal, { status: 'unavailable' }>): AirkeyError {
  if (outcome.status === 'throttled') return new TooManyRequestsError(outcome.retryAfterSeconds);
  if (outcome.status === 'address_refused') return new IpNotAllowedError(outcome.client);
  if (outcome.status === 'invalid_token') return new InvalidTokenError();
  return new KeyRejectedError(REJECTIONS[outcome.status]);
}

// The limits' refusals: the wait is in the header fields, so each body never changes.
const RATE_LIMITED = Object.freeze(withoutStack(() => new RateLimitedError()));
const QUOTA_EXCEEDED = {
  day: Object.freeze(withoutStack(() => new QuotaExceededError('day'))),
  month: Object.freeze(withoutStack(() => new QuotaExceededError('month'))),
  total: Object.freeze(withoutStack(() => new QuotaExceededError('total'))),
};
const QUOTA_UNAVAILABLE = problemFor(
  'unavailable',
  "The service cannot reach the count of this key's quota right now. Retry shortly.",
);
