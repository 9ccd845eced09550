import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import {
  ADMIN,
  clientAddress,
  createKey,
  signIn,
  startInstance,
  takeTurn,
  waitFor,
  type Instance,
} from '../support/instances.ts';

const FLUSH_MS = 500;

/** Requests sent one after another to `on`, each tagged by its user agent; the tags of those answered 200. */
function steadyLoad(on: Instance, secret: string, prefix: string) {
  const answered: string[] = [];
  let running = true;
  const done = (async () => {
    for (let n = 0; running; n++) {
      const tag = `${prefix}-${n}`;
      const response = await fetch(`${on.url}/api/v1/whoami`, {
        headers: { 'x-api-key': secret, 'user-agent': tag, 'x-forwarded-for': clientAddress() },
      }).catch(() => undefined);
      if (response === undefined) return; // the process is gone
      await response.arrayBuffer();
      if (response.status === 200) answered.push(tag);
    }
  })();
  return { answered, stop: async () => ((running = false), await done) };
}

async function loggedTags(sql: pg.Client, prefix: string): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ tag: string; n: number }>(
    'select user_agent as tag, count(*)::int as n from request_log_entries where user_agent like $1 group by 1',
    [`${prefix}-%`],
  );
  return new Map(rows.map((r) => [r.tag, r.n]));
}

/**
 * Two `airkey serve` processes on one PostgreSQL under load, one killed with SIGKILL
 * (docs/request-log.md (Writing)): every request the survivor answered is logged exactly once,
 * and the killed one loses only what it had not yet written: the newest of its requests, never
 * an older one, and none twice.
 */
describe('the request log of two instances, one killed', () => {
  it(
    'logs every request of the survivor once and loses only the killed one’s unwritten tail',
    { timeout: 180_000 },
    async () => {
      const release = await takeTurn();
      onTestFinished(release);
      const databaseUrl = await freshPostgresUrl();
      const sql = new pg.Client({ connectionString: databaseUrl });
      await sql.connect();
      onTestFinished(() => sql.end());
      const env = { USAGE_FLUSH_MS: String(FLUSH_MS) };
      const a = await startInstance('a', databaseUrl, env);
      onTestFinished(() => a.stop('SIGKILL').then(() => {}));
      const b = await startInstance('b', databaseUrl, env);
      onTestFinished(() => b.stop('SIGKILL').then(() => {}));
      const { secret } = await createKey(await signIn(a, ADMIN.email), a);

      const onA = steadyLoad(a, secret, 'a');
      const onB = steadyLoad(b, secret, 'b');
      await waitFor(async () => (await loggedTags(sql, 'a')).size > 20, { timeoutMs: 30_000, what: 'A to write' });
      a.child.kill('SIGKILL');
      expect(await a.exited).toBeNull();
      await onA.stop();
      const answeredAtKill = onB.answered.length;
      await waitFor(() => Promise.resolve(onB.answered.length > answeredAtKill + 50), {
        timeoutMs: 30_000,
        what: 'B to go on answering after the kill',
      });
      await onB.stop();
      expect(await b.stop('SIGTERM')).toBe(0);

      const fromB = await loggedTags(sql, 'b');
      expect(onB.answered.filter((tag) => fromB.get(tag) !== 1)).toEqual([]);
      expect(fromB.size).toBe(onB.answered.length);
      const fromA = await loggedTags(sql, 'a');
      expect([...fromA.values()].every((n) => n === 1)).toBe(true);
      // Written in the order recorded: what A wrote is a prefix of what it answered.
      expect(onA.answered.slice(0, fromA.size).filter((tag) => !fromA.has(tag))).toEqual([]);
      console.info(`A answered ${onA.answered.length}, wrote ${fromA.size}; B answered and wrote ${fromB.size}`);
    },
  );
});
