import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { buildApp } from '../../../src/http/app.ts';
import { codeFrom, passwordFrom, pendingFrom, statusCounts, THROUGH_PROXY } from '../../support/door-kit.ts';
import { createHarness, rowsOf, TEST_PASSWORD, type Harness } from '../../support/harness.ts';
import { captureLogs } from '../../support/log-capture.ts';
import { enrolTotp } from '../../support/second-factors.ts';

const redisUrl = inject('redisUrl');

/** The same guarantee with REDIS_URL set: the counts live in Redis, shared by both instances. */
describe('guesses sent together, to two instances sharing Redis', () => {
  let h: Harness;
  let b: ServiceRoot;
  let bApp: FastifyInstance;

  beforeAll(async () => {
    if (!redisUrl) throw new Error(inject('redisProblem'));
    h = await createHarness({ engine: 'postgres', config: { ...THROUGH_PROXY, redisUrl } });
    b = await createServices(h.config, { clock: h.clock });
    await b.start();
    bApp = await buildApp(b, { logStream: captureLogs().stream });
    await bApp.ready();
  });
  afterAll(async () => {
    await bApp?.close();
    await b?.close();
    await h?.close();
  });

  const on = (i: number) => (i % 2 === 0 ? h.app : bApp);

  it('checks at most 5 of 50 wrong passwords sent at once from one client', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) => passwordFrom(on(i), '198.51.100.177', user.email, `wrong ${i}`)),
    );
    expect(statusCounts(all)).toEqual({ 401: 5, 429: 45 });
    // Counted in Redis, not in the database's table.
    const counted = await rowsOf<{ n: number }>(h, sql`select count(*)::int as n from sign_in_attempts`);
    expect(counted.rows[0]!.n).toBe(0);
  });

  it('locks the second-factor step after 10 wrong codes from 10 clients over both instances', async () => {
    const admin = await h.signedIn();
    await enrolTotp(h, admin);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const client = `203.0.113.${100 + i}`;
      const pending = await pendingFrom(on(i), client, admin.email, TEST_PASSWORD);
      statuses.push(
        (await codeFrom(on(i + 1), client, pending, { method: 'totp', code: String(100000 + i) })).statusCode,
      );
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });
});
