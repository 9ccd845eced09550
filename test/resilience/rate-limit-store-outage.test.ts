import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';
import { createKeyWithLimit } from '../support/rate-limit-kit.ts';
import { switchableProxy } from '../support/switchable-proxy.ts';
import { waitFor } from '../support/wait-for.ts';

const WHOAMI = '/api/v1/whoami';
const START = '2026-11-22T12:00:05Z';

/**
 * docs/keys.md (Rate limits): an instance that cannot reach the shared store (here Redis, behind a relay the test
 * switches off) spends only the budget it already holds for a key, then answers 429 for that key —
 * never "unlimited" — while keys without a limit go on; once the store is back, the key is served again.
 */
describe('a limited key while its rate-limit store (Redis) is away', () => {
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let h: Harness;

  beforeAll(async () => {
    const url = inject('redisUrl');
    if (!url) throw new Error(inject('redisProblem'));
    proxy = await switchableProxy(url);
    h = await createHarness({ engine: 'postgres', now: START, config: { redisUrl: proxy.url, logLevel: 'warn' } });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
  });

  it('spends what it holds, then refuses with 429 rate_limited, and serves the key again once the store is back', async () => {
    const admin = await h.signedIn();
    const limited = await createKeyWithLimit(admin, { requests: 1000, window: '1m' });
    const unlimited = await createKeyWithLimit(admin, null, 'unlimited');
    expect((await h.api(limited.secret, WHOAMI)).statusCode).toBe(200);
    expect((await h.api(unlimited.secret, WHOAMI)).statusCode).toBe(200);

    await proxy.off();
    let servedFromHeld = 0;
    let refusal = await h.api(limited.secret, WHOAMI);
    while (refusal.statusCode === 200 && servedFromHeld < 1000) {
      servedFromHeld++;
      refusal = await h.api(limited.secret, WHOAMI);
    }
    expectProblem(refusal, 429, 'rate_limited');
    console.log(`Redis away: ${servedFromHeld} requests served from the budget held, then 429 rate_limited`);
    expect(servedFromHeld).toBeLessThan(1000);
    for (let i = 0; i < 5; i++) expect((await h.api(limited.secret, WHOAMI)).statusCode).toBe(429);
    expect((await h.api(unlimited.secret, WHOAMI)).statusCode).toBe(200);

    await proxy.on();
    await waitFor(
      async () => {
        // The limiter asks the store again a second after it failed (by the services' clock).
        h.clock.advance(1_100);
        return (await h.api(limited.secret, WHOAMI)).statusCode === 200;
      },
      { timeoutMs: 15_000, what: 'the limited key served again' },
    );
  });
});
