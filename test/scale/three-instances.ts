import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import {
  ADMIN,
  airkeyEnv,
  apiStatus,
  createKey,
  runCli,
  signIn,
  startInstance,
  takeTurn,
  TURN_TIMEOUT_MS,
  type Instance,
  type Session,
} from '../support/instances.ts';
import { Latencies } from './latencies.ts';
import { propagation } from './propagation.ts';

/**
 * The revocation files' kit: three real `airkey serve` processes on one PostgreSQL database
 * (docs/keys.md (Revocation)). Every change is made on A (or with the CLI), and in the same tick as
 * its response arrives (the CLI: as it prints its result) the key is fired at every other
 * instance, where it was cached: each answer is returned, one per instance, for the test to hold
 * to the one status the contract fixes. The revoking responses' times are measured.
 */

// SCALE_TRIALS=200 for the full run; the default keeps each file at a minute or two.
export const TRIALS = Number(process.env.SCALE_TRIALS || 30);
export const CLI_TRIALS = process.env.SCALE_TRIALS ? TRIALS : 5; // per CLI verb: each is a process start
// docs/keys.md (Revocation): 50 ms. On a machine whose load is many times its cores the scheduling alone can exceed it.
export const HEALTHY_P99_MS = Number(process.env.SCALE_WAIT_P99_MS || 50);
export const WHOAMI = '/api/v1/whoami';
export const FLIGHTS = '/api/v1/flights?limit=1';

export const is = (expected: number) => (status: number) => status === expected;
/** The part of a response spent waiting for the other instances (docs/keys.md (Revocation)): what this design adds. */
export const waitOf = (label: string) => `  ${label}: waiting for the others`;

/** What one instance answered for the key in the tick the revoking response arrived. */
export type Answer = { instance: string; status: number };

export type ThreeInstances = {
  a: Instance;
  b: Instance;
  c: Instance;
  databaseUrl: string;
  sql: pg.Client;
  admin: Session;
  latencies: Latencies;
  /** Every wait for healthy instances in the file: p99 over all of them is held to HEALTHY_P99_MS. */
  healthyWaits: Latencies;
  /** The instances a change on A must reach: B and C until a test stops one. */
  others(): Instance[];
  setOthers(instances: Instance[]): void;
  /** Uses the key on the others until they answer `expected`, so a change must evict a cached entry there. */
  warm(key: string, path: string, expected: number): Promise<void>;
  /**
   * Sends a revoking request on A and, in the tick its response head arrives, fires `key` at every
   * other instance. Returns what each answered; records A's response time under `label`.
   */
  revokeOnA(
    label: string,
    change: { method: 'PATCH' | 'DELETE'; path: string; body?: unknown; status: number },
    key: string,
    keyPath: string,
  ): Promise<Answer[]>;
  /** Runs a CLI verb and, in the tick it prints its result, fires `key` at every instance. */
  revokeWithCli(args: string[], key: string, keyPath: string): Promise<Answer[]>;
  newUser(roles: string[]): Promise<{ id: string; email: string }>;
  /** A user of the demo tenant holding one key they created. */
  userWithKey(): Promise<{ id: string; email: string; key: string }>;
};

/**
 * Holds every answer to `expected` and shows that each of `instances` was asked `times` times:
 * prints the answers per instance, then fails on any other status (naming the instance) or on an
 * instance that answered fewer or more times.
 */
export function expectEachAnswered(answers: Answer[], expected: number, instances: Instance[], times: number): void {
  printAnswers(`expected ${expected} from ${instances.map((i) => i.name).join(', ')}`, answers);
  expect(answers.filter((answer) => answer.status !== expected)).toEqual([]);
  const asked = Object.fromEntries(instances.map((i) => [i.name, answers.filter((a) => a.instance === i.name).length]));
  expect(asked).toEqual(Object.fromEntries(instances.map((i) => [i.name, times])));
}

/** Prints, per instance, how many probes it answered and with what. */
function printAnswers(what: string, answers: Answer[]): void {
  const byInstance = new Map<string, Map<number, number>>();
  for (const { instance, status } of answers) {
    const counts = byInstance.get(instance) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    byInstance.set(instance, counts);
  }
  const parts = [...byInstance].map(
    ([instance, counts]) => `${instance} ${[...counts].map(([status, n]) => `${n}× ${status}`).join(', ')}`,
  );
  console.log(`${what}: ${parts.join('; ')}`);
}

/** Starts A, B and C for the file (after its turn), and stops them at its end. */
export function threeInstances(): ThreeInstances {
  let others: Instance[] = [];
  let release: (() => Promise<void>) | undefined;
  const t = {
    latencies: new Latencies(),
    healthyWaits: new Latencies(),
    others: () => others,
    setOthers: (instances: Instance[]) => void (others = instances),
  } as ThreeInstances;

  beforeAll(async () => {
    release = await takeTurn();
    t.databaseUrl = await freshPostgresUrl({ migrated: false });
    // Empty, and started together: migrations and first-start data must still happen once.
    [t.a, t.b, t.c] = await Promise.all([
      startInstance('A', t.databaseUrl),
      startInstance('B', t.databaseUrl),
      startInstance('C', t.databaseUrl),
    ]);
    others = [t.b, t.c];
    t.sql = new pg.Client({ connectionString: t.databaseUrl });
    await t.sql.connect();
    t.admin = await signIn(t.a, ADMIN.email);
  }, TURN_TIMEOUT_MS);

  afterAll(async () => {
    console.log(
      `\n${t.latencies.table(`revoking response on A (ms), ${TRIALS} trials per change`)}\n${t.healthyWaits.table('every wait for healthy instances (ms)')}\n`,
    );
    await t.sql?.end();
    const codes = await Promise.all([t.a, t.b, t.c].map((instance) => instance?.stop()));
    await release?.();
    expect(codes).toEqual([0, 0, 0]);
  });

  /** What A's last write waited for the other instances' acknowledgements, from its /metrics. */
  async function lastWaitOnA(): Promise<number> {
    const text = await (await fetch(`${t.a.url}/metrics`)).text();
    const line = text.split('\n').find((candidate) => candidate.startsWith('airkey_revocation_wait_seconds '));
    return Number(line!.split(' ')[1]) * 1000;
  }

  const probe = (instances: Instance[], key: string, keyPath: string) =>
    Promise.all(
      instances.map(async (instance) => ({ instance: instance.name, status: await apiStatus(instance, key, keyPath) })),
    );

  t.warm = async (key, path, expected) => {
    await propagation(others, key, path, is(expected), performance.now());
    for (const instance of others) expect(await apiStatus(instance, key, path)).toBe(expected);
  };

  t.revokeOnA = async (label, change, key, keyPath) => {
    const started = performance.now();
    const response = await t.admin.send(t.a, change.method, change.path, change.body);
    const answers = probe(others, key, keyPath);
    t.latencies.add(label, performance.now() - started);
    expect(response.status).toBe(change.status);
    await response.arrayBuffer();
    const settled = await answers;
    const waited = await lastWaitOnA();
    t.latencies.add(waitOf(label), waited);
    if (others.length > 0) t.healthyWaits.add('all', waited);
    return settled;
  };

  t.revokeWithCli = async (args, key, keyPath) => {
    const run = runCli(args, airkeyEnv(t.databaseUrl));
    await run.printed;
    const answers = probe([t.a, t.b, t.c], key, keyPath);
    expect((await run.done).code).toBe(0);
    return answers;
  };

  t.newUser = async (roles) => {
    const email = `u-${randomBytes(4).toString('hex')}@scale.test`;
    const reply = await t.admin.request<{ id: string }>(t.a, 'POST', '/backoffice/api/users', {
      email,
      name: 'Scale User',
      password: ADMIN.password,
      roles,
    });
    expect(reply.status).toBe(201);
    return { id: reply.body.id, email };
  };

  t.userWithKey = async () => {
    const user = await t.newUser(['system_administrator']);
    const session = await signIn(t.a, user.email);
    return { ...user, key: (await createKey(session, t.a)).secret };
  };

  return t;
}
