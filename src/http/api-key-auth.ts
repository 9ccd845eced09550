import type { FastifyRequest } from 'fastify';
import { authenticate } from '../keys/authenticate.ts';
import type { KeyCheck } from '../keys/key-check.ts';
import type { Principal } from '../keys/principal.ts';
import { queryKeysOf } from './redaction.ts';

/** Runs the key check for a REST or MCP request; the principal lands on `request.principal`. */
export function apiKeyHook(keyCheck: KeyCheck) {
  return async function checkApiKey(request: FastifyRequest): Promise<void> {
    request.principal = await principalOf(keyCheck, request);
  };
}

export function principalOf(keyCheck: KeyCheck, request: FastifyRequest): Promise<Principal> {
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
