import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { buildApp } from '../../../src/http/app.ts';
import { codeFrom, locksOf, passwordFrom, pendingFrom, statusCounts, THROUGH_PROXY } from '../../support/door-kit.ts';
import { createHarness, TEST_PASSWORD, type Harness } from '../../support/harness.ts';
import { captureLogs } from '../../support/log-capture.ts';
import { expectProblem } from '../../support/problems.ts';
import { enrolTotp } from '../../support/second-factors.ts';

/**
 * Two instances on one PostgreSQL, no Redis: the counts live in the database, and an attempt is
 * counted before its secret is checked, so guesses sent at once, to both instances, cannot pass
 * the limit, and the account's hourly password count is one count wherever the guesses land.
 */
describe('guesses sent together, to two instances (postgres)', () => {
  let h: Harness;
  let b: ServiceRoot;
  let bApp: FastifyInstance;

  beforeAll(async () => {
    h = await createHarness({ engine: 'postgres', config: THROUGH_PROXY });
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

  /** Even requests to A, odd ones to B. */
  const on = (i: number) => (i % 2 === 0 ? h.app : bApp);

  it('checks at most 5 of 50 wrong passwords sent at once from one client; the rest are 429', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) => passwordFrom(on(i), '198.51.100.77', user.email, `wrong ${i}`)),
    );
    expect(statusCounts(all)).toEqual({ 401: 5, 429: 45 });
  });

  it('checks at most 5 of 50 wrong codes sent at once from one client; the rest are 429', async () => {
    const admin = await h.signedIn();
    await enrolTotp(h, admin);
    const pending = await pendingFrom(h.app, '198.51.100.78', admin.email, TEST_PASSWORD);
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        codeFrom(on(i), '198.51.100.78', pending, { method: 'totp', code: String(100000 + i) }),
      ),
    );
    expect(statusCounts(all)).toEqual({ 401: 5, 429: 45 });
  });

  it('locks password sign-in of the account for the hour after 100 wrong passwords from 100 clients, audited once', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    for (let batch = 0; batch < 10; batch++) {
      const tries = Array.from({ length: 10 }, (_, i) => batch * 10 + i).map((n) =>
        passwordFrom(on(n), `10.${batch}.${n}.1`, user.email, `wrong ${n}`),
      );
      expect(statusCounts(await Promise.all(tries))).toEqual({ 401: 10 });
    }
    // The right password, from a client never seen, on either instance: refused for the rest of the hour.
    for (const app of [h.app, bApp]) {
      const locked = await passwordFrom(app, '192.0.2.200', user.email, TEST_PASSWORD);
      expectProblem(locked, 429, 'too_many_requests');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50 * 60);
    }
    await b.signIn.signIns.attemptsSettled();
    const locks = await locksOf(h, user.id);
    expect(locks.map((lock) => lock.detail.locked)).toEqual(['password']);
    h.clock.advance(60 * 60_000);
    expect((await passwordFrom(bApp, '192.0.2.200', user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('starts the hundred over at a success: wrong passwords with successes between them never lock', async () => {
    const tenant = await h.tenant();
    const user = await h.user(tenant.id, ['crew']);
    for (let round = 0; round < 2; round++) {
      const tries = Array.from({ length: 60 }, (_, n) =>
        passwordFrom(on(n), `10.200.${round}.${n}`, user.email, `wrong ${n}`),
      );
      expect(statusCounts(await Promise.all(tries))).toEqual({ 401: 60 });
      expect((await passwordFrom(on(round), '192.0.2.201', user.email, TEST_PASSWORD)).statusCode).toBe(200);
    }
    expect(await locksOf(h, user.id)).toEqual([]);
  });
});
