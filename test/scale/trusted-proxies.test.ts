import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn, startInstance, type Instance, type Session } from '../support/instances.ts';

/**
 * docs/keys.md (Who the client is) with real sockets: one `airkey serve` process listening on every address (dual-stack,
 * so IPv4 peers reach it as IPv4-mapped IPv6, as behind many balancers), and requests sent from
 * different loopback source addresses, so the peer the server sees really differs. 127.0.0.2 and
 * 127.0.0.3 are the trusted proxies; 127.0.0.4 and ::1 are not.
 */

type Seen = { status: number; detail: string | undefined };

/** whoami with `secret` from `localAddress`, with X-Forwarded-For as given. */
function whoamiFrom(on: Instance, secret: string, localAddress: string, forwardedFor?: string): Promise<Seen> {
  const port = Number(new URL(on.url).port);
  const host = localAddress.includes(':') ? '::1' : '127.0.0.1';
  const headers: Record<string, string> = { 'x-api-key': secret };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return new Promise((resolve, reject) => {
    const sent = request({ host, port, localAddress, path: '/api/v1/whoami', headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        const detail = response.statusCode === 200 ? undefined : (JSON.parse(body) as { detail: string }).detail;
        resolve({ status: response.statusCode ?? 0, detail });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the client behind trusted proxies, seen from real peers', () => {
  let server: Instance;
  let admin: Session;
  let secret: string;
  const tried: string[] = [];

  beforeAll(async () => {
    server = await startInstance('proxied', undefined, { HOST: '::', TRUSTED_PROXIES: '127.0.0.2, 127.0.0.3' });
    admin = await signIn(server, ADMIN.email);
    const created = await admin.request<{ secret: string }>(server, 'POST', '/backoffice/api/api-keys', {
      name: 'partner egress',
      allowed_ips: ['198.51.100.7', '::1'],
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
  }, 120_000);
  afterAll(async () => {
    console.log(`allowed_ips ["198.51.100.7", "::1"], TRUSTED_PROXIES "127.0.0.2, 127.0.0.3":\n${tried.join('\n')}`);
    await server?.stop('SIGKILL');
  });

  const attempt = async (what: string, from: string, forwardedFor?: string) => {
    const seen = await whoamiFrom(server, secret, from, forwardedFor);
    const header = forwardedFor === undefined ? 'no X-Forwarded-For' : `X-Forwarded-For "${forwardedFor}"`;
    tried.push(`  ${what}: from ${from}, ${header} -> ${seen.status}${seen.detail ? ` (${seen.detail})` : ''}`);
    return seen;
  };
  const names = (address: string) =>
    `This API key may not be used from ${address}: it is outside the key's allowed_ips.`;

  it('lets the allowed client in through a trusted proxy, which it reaches as an IPv4-mapped peer', async () => {
    expect(await attempt('allowed client via proxy', '127.0.0.2', '198.51.100.7')).toEqual({
      status: 200,
      detail: undefined,
    });
  });

  it('does not let a spoofed leftmost entry in: the address the proxy appended is the client', async () => {
    expect(await attempt('spoofed leftmost entry', '127.0.0.2', '198.51.100.7, 203.0.113.9')).toEqual({
      status: 403,
      detail: names('203.0.113.9'),
    });
  });

  it('walks a chain of two trusted proxies to the client, and past neither', async () => {
    expect(await attempt('chain of two proxies', '127.0.0.3', '198.51.100.7, 127.0.0.2')).toEqual({
      status: 200,
      detail: undefined,
    });
    expect(await attempt('chain, spoofed leftmost', '127.0.0.3', '198.51.100.7, 203.0.113.9, 127.0.0.2')).toEqual({
      status: 403,
      detail: names('203.0.113.9'),
    });
  });

  it('takes the trusted proxy as the client when its header is malformed', async () => {
    expect(await attempt('malformed header', '127.0.0.2', 'not-an-address')).toEqual({
      status: 403,
      detail: names('127.0.0.2'),
    });
    expect(
      await attempt('allowed entry left of a malformed one', '127.0.0.2', '198.51.100.7, 198.51.100.8:443'),
    ).toEqual({ status: 403, detail: names('127.0.0.2') });
    expect(await attempt('chain with a malformed hop', '127.0.0.3', '198.51.100.7, bogus, 127.0.0.2')).toEqual({
      status: 403,
      detail: names('127.0.0.2'),
    });
  });

  it('ignores the header of a peer that is not a trusted proxy, over IPv4 and IPv6', async () => {
    expect(await attempt('untrusted IPv4 peer', '127.0.0.4', '198.51.100.7')).toEqual({
      status: 403,
      detail: names('127.0.0.4'),
    });
    // ::1 is itself allowed: its header, naming an address that is not, changes nothing either way.
    expect(await attempt('untrusted IPv6 peer', '::1', '203.0.113.9')).toEqual({ status: 200, detail: undefined });
  });
});
