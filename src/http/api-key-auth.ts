import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authenticate, type KeyRefusal } from '../keys/authenticate.ts';
import type { Accepted } from '../keys/decide.ts';
import type { KeyCheck } from '../keys/key-check.ts';
import type { KeyRateLimits } from '../keys/key-rate-limits.ts';
import { WINDOW_SECONDS, type RateLimit } from '../ratelimit/rate-limit.ts';
import type { RateDecision } from '../ratelimit/rate-limiter.ts';
import { RateLimitedError, withoutStack } from '../shared/errors.ts';
import { recordKeyCheck } from '../telemetry/key-check-attributes.ts';
import { sendError } from './problem.ts';
import { queryKeysOf } from './redaction.ts';

/**
 * Runs the key check for a REST or MCP request, then the key's rate limit when it has one; the
 * principal lands on `request.principal`, a refusal is answered from here as problem details
 * (sendError, as the error handler would, minus Fastify's error path). Callback style on purpose:
 * a cached key under a limit this instance holds budget for, and a client known to be blocked,
 * are answered without creating a single promise or throwing.
 */
export function apiKeyHook(keyCheck: KeyCheck, rateLimits: KeyRateLimits) {
  return function checkApiKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let result: ReturnType<typeof authenticateRequest>;
    try {
      result = authenticateRequest(keyCheck, request);
    } catch (error) {
      return done(error as Error);
    }
    if (result instanceof Promise) result.then((settled) => settle(rateLimits, request, reply, done, settled), done);
    else settle(rateLimits, request, reply, done, result);
  };
}

// Module-level, not a closure per request: nothing is allocated to carry the request to the limiter.
// A hook that sends the reply does not call `done` (Fastify, Hooks: respond from a hook).
function settle(
  rateLimits: KeyRateLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  result: Accepted | KeyRefusal,
): void {
  recordKeyCheck(result);
  if (result instanceof Error) return void sendError(request, reply, result);
  request.principal = result.principal;
  if (result.rateLimit === undefined) return done();
  const limit = result.rateLimit;
  let decision: RateDecision | Promise<RateDecision>;
  try {
    decision = rateLimits.take(result.keyId, result.principal.tenant.id, limit);
  } catch (error) {
    return done(error as Error);
  }
  if (decision instanceof Promise) decision.then((settled) => limited(request, reply, done, limit, settled), done);
  else limited(request, reply, done, limit, decision);
}

/**
 * The RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, RFC 9651 items) on every
 * response to a limited key, the 429 included (/mcp, which writes its responses itself, copies them).
 */
function limited(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  limit: RateLimit,
  d: RateDecision,
): void {
  // Lowercase, as Fastify stores and sends them: a name it must lowercase is a new string per
  // response, interned again to become a property key.
  reply.header('ratelimit-policy', policyOf(limit));
  reply.header('ratelimit', `"key";r=${d.remaining};t=${d.resetSeconds}`);
  if (d.ok) return done();
  reply.header('retry-after', String(d.resetSeconds));
  sendError(request, reply, RATE_LIMITED);
}

// The key cache's own limit object, replaced when the limit changes: its policy field is built
// once, not per response (a string built per request is also checked by Node in its slow path).
const policies = new WeakMap<RateLimit, string>();

function policyOf(limit: RateLimit): string {
  let policy = policies.get(limit);
  if (policy === undefined)
    policies.set(limit, (policy = `"key";q=${limit.requests};w=${WINDOW_SECONDS[limit.window]}`));
  return policy;
}

// One frozen refusal for every 429, built once without a stack: the wait is in the header fields,
// so the body never changes and sendError serialises it once.
const RATE_LIMITED = Object.freeze(withoutStack(() => new RateLimitedError()));

/** The request's key, from wherever docs/api.md allows it, checked: the acceptance or the refusal. */
export function authenticateRequest(
  keyCheck: KeyCheck,
  request: FastifyRequest,
): Accepted | KeyRefusal | Promise<Accepted | KeyRefusal> {
  return authenticate(
    keyCheck,
    {
      xApiKey: request.headers['x-api-key'],
      authorization: request.headers.authorization,
      queryKey: queryKeysOf(request.raw),
    },
    request.client,
  );
}
