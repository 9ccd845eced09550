import type { FastifyRequest } from 'fastify';
import { KEY_PREFIX } from '../keys/format/secret.ts';
import { queryKeysOf } from './redaction.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The access token of a request (docs/oauth.md), if it carries one: `Authorization: Bearer` with a
 * value that is not an `ask_` key, and no other credential. A token is accepted in that header only
 * (RFC 9728 `bearer_methods_supported: ["header"]`): in the query string it is an unknown key. With
 * a key beside it, the key check answers (two credentials: `api_key_ambiguous`).
 */
export function accessTokenOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization === undefined || request.headers['x-api-key'] !== undefined) return undefined;
  if (queryKeysOf(request.raw) !== undefined) return undefined;
  const token = BEARER.exec(authorization)?.[1];
  return token === undefined || token.startsWith(KEY_PREFIX) ? undefined : token;
}
