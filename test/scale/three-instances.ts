import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { ADMIN, apiStatus, createKey, signIn, startInstance, takeTurn, TURN_TIMEOUT_MS, type Instance, type Session } from './instances.ts';
import { Figures, propagation } from './propagation.ts';

/**
 * Three real `airkey serve` processes on one PostgreSQL database. Every change is made on A (or
 * with the CLI) and must be seen on B and C within 100 ms, measured from the change's response to
 * the first rejection; the key is always in B's and C's cache before the change, so what is
 * measured is the change feed, not a cache miss.
 */

export const TRIALS = 20;
export const CLI_TRIALS = 10; // per CLI verb; two verbs
export const BOUND_MS = 100;
export const WHOAMI = '/api/v1/whoami';
export const FLIGHTS = '/api/v1/flights?limit=1';

export const is = (expected: number) => (status: number) => status === expected;

// Live bindings: set by the hooks useThreeInstances() registers, read by the test file that called it.
export let databaseUrl: string;
export let sql: pg.Client;
export let a: Instance, b: Instance, c: Instance;
export let admin: Session;
export const figures = new Figures();
export const others = () => [b, c];

export function useThreeInstances(): void {
  let release: () => Promise<void>;

  beforeAll(async () => {
    release = await takeTurn();
    databaseUrl = await freshPostgresUrl();
    // Started together: migrations and first-start data must still happen once.
    [a, b, c] = await Promise.all([startInstance('A', databaseUrl), startInstance('B', databaseUrl), startInstance('C', databaseUrl)]);
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    admin = await signIn(a, ADMIN.email);
  }, TURN_TIMEOUT_MS);

  afterAll(async () => {
    if (figures.size > 0) console.log(`\npropagation across instances, ${TRIALS} trials per change (${CLI_TRIALS} per CLI verb):\n${figures.table()}\n`);
    await sql?.end();
    const codes = await Promise.all([a, b, c].map((instance) => instance?.stop()));
    await release?.();
    expect(codes).toEqual([0, 0, 0]);
  });
}

/** Uses the key once on B and C, so the change must evict a cached entry there. */
export async function warm(key: string, path: string, expected: number): Promise<void> {
  await propagation(others(), key, path, is(expected), performance.now());
  for (const instance of others()) expect(await apiStatus(instance, key, path)).toBe(expected);
}

export async function newUser(roles: string[]): Promise<{ id: string; email: string }> {
  const email = `u-${randomBytes(4).toString('hex')}@scale.test`;
  const reply = await admin.request(a, 'POST', '/backoffice/api/users', { email, name: 'Scale User', password: ADMIN.password, roles });
  expect(reply.status).toBe(201);
  return { id: reply.body.id, email };
}

/** A user of the demo tenant holding one key they created. */
export async function userWithKey(): Promise<{ id: string; email: string; key: string }> {
  const user = await newUser(['system_administrator']);
  const session = await signIn(a, user.email);
  return { ...user, key: (await createKey(session, a)).secret };
}
