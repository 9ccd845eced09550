import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authenticate, type KeyRefusal } from '../keys/check/authenticate.ts';
import type { Accepted } from '../keys/check/decide.ts';
import type { KeyCheck } from '../keys/check/key-check.ts';
import { recordKeyCheck } from '../telemetry/spans/key-check-attributes.ts';
import { sendError } from './problem.ts';
import { queryKeysOf } from './redaction.ts';
import { applyLimits, type KeyLimits } from './key-limits.ts';

/**
 * Runs the key check for a REST or MCP request, then the key's rate limit and quota when it has
 * them; the principal lands on `request.principal`, a refusal is answered from here as problem
 * details (sendError, as the error handler would, minus Fastify's error path). Callback style on
 * purpose: a cached key under limits this instance holds budget for, and a client known to be
 * blocked, are answered without creating a single promise or throwing.
 */
export function apiKeyHook(keyCheck: KeyCheck, limits: KeyLimits) {
  return function checkApiKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let result: ReturnType<typeof authenticateRequest>;
    try {
      result = authenticateRequest(keyCheck, request);
    } catch (error) {
      return done(error as Error);
    }
    if (result instanceof Promise) result.then((settled) => settle(limits, request, reply, done, settled), done);
    else settle(limits, request, reply, done, result);
  };
}

// Module-level, not a closure per request: nothing is allocated to carry the request to the limits.
// A hook that sends the reply does not call `done` (Fastify, Hooks: respond from a hook).
function settle(
  limits: KeyLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  result: Accepted | KeyRefusal,
): void {
  recordKeyCheck(result);
  if (result instanceof Error) return void sendError(request, reply, result);
  request.principal = result.principal;
  if (result.rateLimit === undefined && result.quota === undefined) return done();
  applyLimits(limits, request, reply, done, result);
}

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
    // A refused key of a tenant lands on `request.refusedKey`, for the request log.
    request,
  );
}
