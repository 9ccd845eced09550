import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import {
  ADMIN,
  airkeyEnv,
  cli,
  clientAddress,
  signIn,
  startInstance,
  takeTurn,
  TURN_TIMEOUT_MS,
  type Instance,
  type Session,
} from '../support/instances.ts';
import { totpCode } from '../support/second-factors.ts';

const PASSWORD = 'a long password for the scale test';

/**
 * Two `airkey serve` processes on one PostgreSQL: what ends a session on one has ended it on the
 * other by the time the response arrives, and a TOTP code accepted by one is refused by the other.
 */
describe('sign-in across two instances on one PostgreSQL', () => {
  let release: () => Promise<void>;
  let a: Instance;
  let b: Instance;
  let admin: Session;
  let databaseUrl: string;

  beforeAll(async () => {
    release = await takeTurn();
    databaseUrl = await freshPostgresUrl();
    // A provider inside the network (127.0.0.1): saved only, never asked, in these tests.
    a = await startInstance('A', databaseUrl, { SSO_ALLOW_PRIVATE: '1' });
    b = await startInstance('B', databaseUrl, { SSO_ALLOW_PRIVATE: '1' });
    admin = await signIn(a, ADMIN.email);
  }, TURN_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await release?.();
  });

  async function newUser(roles: string[]): Promise<{ id: string; email: string }> {
    const email = `u${Date.now()}${Math.floor(Math.random() * 1e6)}@scale.test`;
    const reply = await admin.request<{ id: string }>(a, 'POST', '/backoffice/api/users', {
      email,
      name: 'Scale user',
      password: PASSWORD,
      roles,
    });
    expect(reply.status).toBe(201);
    return { id: reply.body.id, email };
  }

  it('ends a deleted user’s session on B before A’s response to the deletion arrives', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const user = await newUser(['operations']);
      const theirs = await signIn(b, user.email, PASSWORD);
      expect((await theirs.request(b, 'GET', '/backoffice/api/session')).status).toBe(200);
      const deleted = await admin.send(a, 'DELETE', `/backoffice/api/users/${user.id}`);
      expect(deleted.status).toBe(204);
      // Asked the moment the response head is in: B must already refuse the session.
      expect((await theirs.request(b, 'GET', '/backoffice/api/session')).status).toBe(401);
    }
  });

  it('ends a user’s sessions on B when A changes their roles, and when they end their own sessions', async () => {
    const user = await newUser(['operations']);
    const onB = await signIn(b, user.email, PASSWORD);
    const changed = await admin.send(a, 'PATCH', `/backoffice/api/users/${user.id}`, { roles: ['crew'] });
    expect(changed.status).toBe(200);
    expect((await onB.request(b, 'GET', '/backoffice/api/session')).status).toBe(401);

    const laptop = await signIn(a, user.email, PASSWORD);
    const phone = await signIn(b, user.email, PASSWORD);
    expect((await laptop.send(a, 'DELETE', '/backoffice/api/me/sessions')).status).toBe(204);
    expect((await phone.request(b, 'GET', '/backoffice/api/session')).status).toBe(401);
  });

  it('accepts a TOTP code once: used on A, the same code is refused on B', async () => {
    const user = await newUser(['system_administrator']);
    const session = await signIn(a, user.email, PASSWORD);
    const begun = await session.request<{ secret: string }>(a, 'POST', '/backoffice/api/me/totp');
    expect(begun.status).toBe(200);
    const { secret } = begun.body;
    const confirmedAt = Date.now();
    const confirmed = await session.request(a, 'POST', '/backoffice/api/me/totp/confirm', {
      code: totpCode(secret, confirmedAt),
    });
    expect(confirmed.status).toBe(200);
    // The confirming code's step counts as used; the next step's code is accepted as adjacent.
    const code = totpCode(secret, confirmedAt + 30_000);
    expect((await secondFactorOn(a, user.email, code)).status).toBe(200);
    const onB = await secondFactorOn(b, user.email, code);
    expect(onB.status).toBe(401);
    expect(((await onB.json()) as { code: string }).code).toBe('invalid_second_factor');
  });

  // Last: it turns passwords off for the first tenant, then the CLI turns them back on.
  it('refuses passwords on B as soon as A turns password sign-in off; the CLI turns it back on', async () => {
    const user = await newUser(['operations']);
    const off = await admin.send(a, 'PATCH', '/backoffice/api/sign-in-settings', {
      password_sign_in: false,
      sso: {
        issuer: 'http://127.0.0.1:9',
        client_id: 'airkey',
        client_secret: 'scale secret',
        allowed_domains: ['scale.test'],
      },
    });
    expect(off.status).toBe(200);
    const refused = await passwordOn(b, user.email);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('sso_required');
    const session = await admin.request<{ user: { tenant: { slug: string } } }>(b, 'GET', '/backoffice/api/session');
    const printed = await cli(
      ['sign-in-settings', 'set', '--tenant', session.body.user.tenant.slug, '--password-sign-in', 'true'],
      airkeyEnv(databaseUrl),
    );
    expect(printed).toMatch(/Password sign-in of .*: on \(single sign-on: http:\/\/127\.0\.0\.1:9\)/);
    expect((await passwordOn(b, user.email)).status).toBe(200);
  });

  function passwordOn(on: Instance, email: string): Promise<Response> {
    return fetch(`${on.url}/backoffice/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
  }

  /** Password then the TOTP step, both on `on`, from a client address of their own. */
  async function secondFactorOn(on: Instance, email: string, code: string): Promise<Response> {
    const client = clientAddress();
    const first = await fetch(`${on.url}/backoffice/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(first.status).toBe(200);
    const pending = first.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('airkey_pending='))!
      .split(';')[0]!;
    return fetch(`${on.url}/backoffice/api/session/second-factor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client, cookie: pending },
      body: JSON.stringify({ method: 'totp', code }),
    });
  }
});
