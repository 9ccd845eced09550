import type { LightMyRequestResponse } from 'fastify';
import type { ApiKeyView } from '../../src/keys/key-schemas.ts';
import type { Harness, Session } from './harness.ts';
import { withKey } from './keys.ts';
import { INITIALIZE } from './mcp-server.ts';

/** Creates a key through the back-office API with `allowed_ips` (and a rate limit, when given). */
export async function createKeyWithIps(
  session: Session,
  allowedIps: string[] | null,
  extra: Record<string, unknown> = {},
): Promise<{ api_key: ApiKeyView; secret: string }> {
  const response = await session.request('POST', '/backoffice/api/api-keys', {
    name: 'Allowlisted key',
    allowed_ips: allowedIps,
    ...extra,
  });
  if (response.statusCode !== 201) throw new Error(`create key failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** `PATCH`es a key's list and returns the response. */
export function patchIps(session: Session, keyId: string, allowedIps: unknown): Promise<LightMyRequestResponse> {
  return session.request('PATCH', `/backoffice/api/api-keys/${keyId}`, { allowed_ips: allowedIps });
}

/** whoami with `secret` from a chosen peer address (and X-Forwarded-For, when given). */
export function whoamiFrom(
  h: Harness,
  secret: string,
  peer: string,
  forwardedFor?: string,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const request = withKey(secret, '/api/v1/whoami', 'header', headers);
  return h.app.inject({ method: 'GET', url: request.url, headers: request.headers, remoteAddress: peer });
}

/** A stateless MCP `initialize` with `secret` from a chosen peer address. */
export function mcpFrom(
  h: Harness,
  secret: string,
  peer: string,
  payload: object = INITIALIZE,
): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress: peer,
    headers: { 'x-api-key': secret, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload,
  });
}
