import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, migratedDataDir, ENGINES, type Engine } from '../support/databases.ts';
import {
  ADMIN,
  clientAddress,
  signIn,
  startInstance,
  takeTurn,
  type CreatedKey,
  type Instance,
  type Session,
} from '../support/instances.ts';

/**
 * Crash safety: a real `airkey serve` is killed with SIGKILL at random moments while a
 * client creates, disables and deletes keys through the back office. After every restart, what
 * the client was told happened has happened, and nothing else was lost.
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const WORKERS = 3;

type Expected = 'enabled' | 'disabled' | 'deleted';
/** What the client knows of each key: its secret and the state the last answered change left it in. */
type Known = { secret: string; state: Expected; pending: boolean };

describe.each(ENGINES)('kill -9 during back-office churn (%s)', (engine: Engine) => {
  const live: Instance[] = [];
  afterAll(async () => {
    for (const instance of live) await instance.stop('SIGKILL');
  });

  it(
    `keeps every answered change and every received secret through ${ROUNDS} crashes`,
    { timeout: 120_000 + ROUNDS * 90_000 },
    async () => {
      const release = await takeTurn();
      try {
        const storage =
          engine === 'postgres'
            ? { url: await freshPostgresUrl(), env: {} as Record<string, string> }
            : { url: undefined, env: { DATA_DIR: migratedDataDir() } };
        const keys = new Map<string, Known>();
        const figures = { rounds: 0, checked: 0, answered: 0, cutOff: 0 };
        for (let round = 0; round <= ROUNDS; round++) {
          // Starting again is itself the check that the data directory or database opens cleanly.
          const server = await startInstance(`${engine}-round-${round}`, storage.url, storage.env);
          live.push(server);
          const session = await signIn(server, ADMIN.email);
          figures.checked += await verify(server, session, keys);
          if (round === ROUNDS) break;
          const stop = { at: 3 + Math.floor(Math.random() * 12), done: 0 };
          const killed = new Promise<void>((resolve) => {
            stop.done = 0;
            const watch = setInterval(() => {
              if (stop.done < stop.at) return;
              clearInterval(watch);
              // Lands at a random instant among the workers' requests in flight.
              setTimeout(() => {
                server.child.kill('SIGKILL');
                resolve();
              }, Math.random() * 40);
            }, 2);
          });
          const workers = Array.from({ length: WORKERS }, () =>
            churn(server, session, keys, () => stop.done++, figures),
          );
          await killed;
          expect(await server.exited).toBe(null); // killed by the signal, not exited on its own
          await Promise.all(workers);
          figures.rounds++;
        }
        console.info(
          `crash (${engine}): ${figures.rounds} kill -9 rounds survived, ${keys.size} keys, ${figures.answered} answered changes, ${figures.cutOff} cut off mid-request, ${figures.checked} key checks after restarts`,
        );
        expect(figures.rounds).toBe(ROUNDS);
        expect(figures.answered).toBeGreaterThan(ROUNDS * 3);
      } finally {
        await release();
      }
    },
  );
});

/** Creates, disables and deletes keys until the server goes away under it. */
async function churn(
  server: Instance,
  session: Session,
  keys: Map<string, Known>,
  tick: () => void,
  figures: { answered: number; cutOff: number },
) {
  for (;;) {
    const enabled = [...keys.entries()].filter(([, k]) => k.state === 'enabled' && !k.pending);
    const roll = Math.random();
    const [id, target] = enabled[Math.floor(Math.random() * enabled.length)] ?? [];
    let change: { method: 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown; to?: Expected };
    if (!target || roll < 0.5)
      change = { method: 'POST', path: '/backoffice/api/api-keys', body: { name: 'crash key' } };
    else if (roll < 0.75)
      change = { method: 'PATCH', path: `/backoffice/api/api-keys/${id}`, body: { enabled: false }, to: 'disabled' };
    else change = { method: 'DELETE', path: `/backoffice/api/api-keys/${id}`, to: 'deleted' };
    if (target) target.pending = change.method !== 'POST';
    let reply;
    try {
      reply = await session.request<CreatedKey>(server, change.method, change.path, change.body);
    } catch {
      // No answer: the change may or may not have happened; the key's state is now unknown.
      if (target && change.method !== 'POST') keys.delete(id!);
      figures.cutOff++;
      return;
    }
    if (change.method === 'POST') {
      expect(reply.status).toBe(201);
      keys.set(reply.body.api_key.id, { secret: reply.body.secret, state: 'enabled', pending: false });
    } else {
      expect(reply.status).toBe(change.method === 'PATCH' ? 200 : 204);
      target!.state = change.to!;
      target!.pending = false;
    }
    figures.answered++;
    tick();
  }
}

/** Every key the client knows: its secret works exactly when the client left it enabled. */
async function verify(server: Instance, session: Session, keys: Map<string, Known>): Promise<number> {
  const listed = await session.request<{ data: Array<{ id: string; status: string }> }>(
    server,
    'GET',
    '/backoffice/api/api-keys',
  );
  expect(listed.status).toBe(200);
  const all = listed.body.data;
  const statusById = new Map(all.map((k) => [k.id, k.status]));
  let checked = 0;
  for (const [id, known] of keys) {
    const response = await fetch(`${server.url}/api/v1/whoami`, {
      headers: { authorization: `Bearer ${known.secret}`, 'x-forwarded-for': clientAddress() },
    });
    const body = (await response.json()) as { code?: string };
    const seen = { id, status: response.status, code: body.code ?? null, listed: statusById.get(id) ?? 'absent' };
    if (known.state === 'enabled') expect(seen).toEqual({ id, status: 200, code: null, listed: 'enabled' });
    if (known.state === 'disabled')
      expect(seen).toEqual({ id, status: 401, code: 'api_key_disabled', listed: 'disabled' });
    if (known.state === 'deleted') expect(seen).toEqual({ id, status: 401, code: 'api_key_invalid', listed: 'absent' });
    checked++;
  }
  return checked;
}
