import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authenticate } from '../keys/authenticate.ts';
import type { KeyCheck } from '../keys/key-check.ts';
import type { Principal } from '../keys/key-schemas.ts';
import { queryKeysOf } from './redaction.ts';

/**
 * Runs the key check for a REST or MCP request; the principal lands on `request.principal`.
 * Callback style on purpose: a cached key is answered without creating a single promise.
 */
export function apiKeyHook(keyCheck: KeyCheck) {
  return function checkApiKey(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    let result: Principal | Promise<Principal>;
    try {
      result = authenticateRequest(keyCheck, request);
    } catch (error) {
      return done(error as Error);
    }
    if (!(result instanceof Promise)) {
      request.principal = result;
      return done();
    }
    result.then((principal) => {
      request.principal = principal;
      done();
    }, done);
  };
}

/** The request's key, from wherever docs/api.md allows it, checked: the principal, or a thrown rejection. */
export function authenticateRequest(keyCheck: KeyCheck, request: FastifyRequest): Principal | Promise<Principal> {
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
