import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../support/harness.ts';
import type { CreatedKey } from '../../src/keys/key-schemas.ts';
import type { Principal } from '../../src/shared/principal.ts';
import type { Harness } from '../support/harness.ts';
import { json, useHarness } from '../support/use.ts';
import { ENGINES } from '../support/databases.ts';
import { expectProblem } from '../support/problems.ts';

/** The `url` of every request line logged so far. */
function loggedUrls(h: Harness): string[] {
  return h.logs
    .flatMap((line) => line.split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { msg?: string; url?: string })
    .filter((entry) => entry.msg === 'request')
    .map((entry) => entry.url!);
}

/** docs/keys.md: the secret is in the creation response and nowhere else: no log line, no row. */
describe.each(ENGINES)('a key used in the query string (%s)', (engine) => {
  const h = useHarness({ engine });

  const secretBody = (secret: string) => secret.slice(4);

  it('leaves no key in any log line after a run of requests, successful or not', async () => {
    const admin = await h.signedIn();
    const { secret, api_key } = await h.createKey(admin);
    const other = await h.createKey(admin, { name: 'disabled' });
    await admin.request('PATCH', `/backoffice/api/api-keys/${other.api_key.id}`, { enabled: false });
    const malformed = 'ask_thisIsNotAValidKeyButStillASecretSomeoneTyped';
    const urls = [
      `/api/v1/whoami?api_key=${secret}`,
      `/api/v1/flights?api_key=${secret}&limit=5`,
      `/api/v1/flights?limit=5&api_key=${secret}`,
      `/api/v1/flights?limit=0&api_key=${secret}`,
      `/api/v1/flights/${crypto.randomUUID()}?api_key=${secret}`,
      `/api/v1/flights/not-a-uuid?api_key=${secret}`,
      `/api/v1/nowhere?api_key=${secret}`,
      `/healthz?api_key=${secret}`,
      `/api/v1/whoami?api_key=${other.secret}`,
      `/api/v1/whoami?api_key=${malformed}`,
      `/api/v1/whoami?api_key=${secret}&api_key=${other.secret}`,
      `/api/v1/whoami?api_key=${encodeURIComponent(secret)}`,
    ];
    for (const url of urls) await h.app.inject({ method: 'GET', url });
    for (const via of ['header', 'bearer'] as const) {
      await h.api(secret, '/api/v1/whoami', via);
      await h.api(other.secret, '/api/v1/whoami', via);
      await h.api(secret, '/api/v1/flights?limit=9999', via);
    }
    const logs = h.logs.join('');
    expect(h.logs.length).toBeGreaterThan(urls.length);
    expect(logs).toContain(api_key.id); // the request lines name the key by id instead
    for (const value of [
      secretBody(secret),
      secretBody(other.secret),
      malformed,
      admin.cookie.split('=')[1]!,
      admin.csrf,
    ]) {
      expect(logs.includes(value), `log contains ${value.slice(0, 12)}…`).toBe(false);
    }
    // The key parameter is dropped from the logged URL; the rest of the query stays.
    const urlsLogged = loggedUrls(h);
    expect(urlsLogged.filter((url) => url.startsWith('/api/v1/flights?') && url.includes('limit=5'))).toEqual([
      '/api/v1/flights?limit=5',
      '/api/v1/flights?limit=5',
    ]);
    expect(urlsLogged.filter((url) => url.startsWith('/healthz'))).toEqual(['/healthz']);
    expect(urlsLogged.filter((url) => /api_key|api%5Fkey/i.test(url))).toEqual([]);
  });

  it('reads a percent-encoded parameter name (api%5Fkey) as api_key, and logs neither it nor a key under another name', async () => {
    const admin = await h.signedIn();
    const { secret, api_key } = await h.createKey(admin);
    const encodedName = await h.app.inject({ method: 'GET', url: `/api/v1/whoami?api%5Fkey=${secret}` });
    expect(encodedName.statusCode).toBe(200);
    expect(json<Principal>(encodedName).key.id).toBe(api_key.id);
    for (const url of [
      `/api/v1/whoami?API_KEY=${secret}`,
      `/api/v1/whoami?api_key[]=${secret}`,
      `/api/v1/whoami?key=${secret}`,
      `/api/v1/flights/${secret}`,
    ]) {
      // Not the parameter's name: no key was sent at all.
      expectProblem(await h.app.inject({ method: 'GET', url }), 401, 'api_key_missing');
    }
    expect(h.logs.filter((line) => line.includes(secretBody(secret)))).toEqual([]);
  });

  it('keeps no key in clear in the database', async () => {
    const admin = await h.signedIn();
    const { secret } = await h.createKey(admin);
    expect((await h.api(secret, `/api/v1/whoami`, 'query')).statusCode).toBe(200);
    await h.services.keys.lastUse.flush();
    const tables = await rowsOf<{ table_name: string }>(
      h,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    let rowsSeen = 0;
    for (const { table_name } of tables.rows) {
      const result = await rowsOf<{ row: string }>(h, sql.raw(`select t::text as row from "${table_name}" t`));
      rowsSeen += result.rows.length;
      for (const { row } of result.rows)
        expect(row.includes(secretBody(secret)), `${table_name} holds the secret`).toBe(false);
    }
    expect(rowsSeen).toBeGreaterThan(0);
  });

  it('shows the secret in the creation response only', async () => {
    const admin = await h.signedIn();
    const created = await admin.request('POST', '/backoffice/api/api-keys', { name: 'once' });
    const { secret } = created.json<{ secret: string }>();
    expect(created.headers['cache-control']).toContain('no-store');
    const elsewhere = await Promise.all([
      admin.request('GET', '/backoffice/api/api-keys'),
      admin.request('GET', '/backoffice/api/audit-events'),
      admin.request('PATCH', `/backoffice/api/api-keys/${json<CreatedKey>(created).api_key.id}`, { enabled: false }),
      h.api(secret, '/api/v1/whoami'),
    ]);
    for (const response of elsewhere) expect(response.body).not.toContain(secretBody(secret));
  });
});
