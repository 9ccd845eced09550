import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authenticate, type KeyRefusal } from '../keys/authenticate.ts';
import type { KeyCheck } from '../keys/key-check.ts';
import type { Principal } from '../keys/key-schemas.ts';
import { recordKeyCheck } from '../telemetry/key-check-attributes.ts';
import { sendError } from './problem.ts';
import { queryKeysOf } from './redaction.ts';

/**
 * Runs the key check for a REST or MCP request; the principal lands on `request.principal`, a
 * refusal is answered from here as problem details (sendError, as the error handler would, minus
 * Fastify's error path). Callback style on purpose: a cached key, and a client known to be
 * blocked, are answered without creating a single promise or throwing.
 */
export function apiKeyHook(keyCheck: KeyCheck) {
  return function checkApiKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let result: ReturnType<typeof authenticateRequest>;
    try {
      result = authenticateRequest(keyCheck, request);
    } catch (error) {
      return done(error as Error);
    }
    if (result instanceof Promise) result.then((settled) => settle(request, reply, done, settled), done);
    else settle(request, reply, done, result);
  };
}

// Module-level, not a closure per request: tsx (esbuild's keepNames) wraps every named function it
// creates in a `__name` call, which was 2 µs of every request in the profile.
// A hook that sends the reply does not call `done` (Fastify, Hooks: respond from a hook).
function settle(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  result: Principal | KeyRefusal,
): void {
  recordKeyCheck(result);
  if (result instanceof Error) return void sendError(request, reply, result);
  request.principal = result;
  done();
}

/** The request's key, from wherever docs/api.md allows it, checked: the principal or the refusal. */
export function authenticateRequest(
  keyCheck: KeyCheck,
  request: FastifyRequest,
): Principal | KeyRefusal | Promise<Principal | KeyRefusal> {
  return authenticate(
    keyCheck,
    {
      xApiKey: request.headers['x-api-key'],
      authorization: request.headers.authorization,
      queryKey: queryKeysOf(request.raw),
    },
    request.ip,
  );
}
