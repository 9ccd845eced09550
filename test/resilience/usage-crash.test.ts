import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { ADMIN, apiStatus, createKey, signIn, startInstance, takeTurn, waitFor } from '../support/instances.ts';

/**
 * Usage counts are write-behind (src/usage/usage-counter.ts): a real `airkey serve` killed with
 * SIGKILL loses the counts taken since its last flush and nothing flushed before, and an instance
 * started afterwards adds to what survived.
 */
const FLUSH_MS = 3_000;
const WHOAMI = '/api/v1/whoami';

async function countedOk(sql: pg.Client, keyId: string): Promise<number> {
  const { rows } = await sql.query<{ ok: string }>(
    'select coalesce(sum(ok), 0) as ok from key_usage where key_id = $1',
    [keyId],
  );
  return Number(rows[0]!.ok);
}

describe('usage counts when an airkey process is killed', () => {
  it(
    'loses only the counts since the last flush when a real process is killed with SIGKILL',
    { timeout: 180_000 },
    async (ctx) => {
      const release = await takeTurn();
      onTestFinished(release);
      const databaseUrl = await freshPostgresUrl();
      const sql = new pg.Client({ connectionString: databaseUrl });
      await sql.connect();
      onTestFinished(() => sql.end());
      const env = { USAGE_FLUSH_MS: String(FLUSH_MS) };
      const first = await startInstance('first', databaseUrl, env);
      onTestFinished(() => first.stop('SIGKILL').then(() => {}));
      const { id, secret } = await createKey(await signIn(first, ADMIN.email), first);

      for (let i = 0; i < 7; i++) expect(await apiStatus(first, secret, WHOAMI)).toBe(200);
      await waitFor(async () => (await countedOk(sql, id)) === 7, {
        timeoutMs: FLUSH_MS * 3,
        everyMs: 10,
        what: 'the timer to flush the first 7 counts',
      });
      const flushedAt = performance.now();
      for (let i = 0; i < 5; i++) expect(await apiStatus(first, secret, WHOAMI)).toBe(200);
      first.child.kill('SIGKILL');
      const killedAfterMs = performance.now() - flushedAt;
      expect(await first.exited).toBeNull(); // ended by the signal, not by itself
      expect(first.child.signalCode).toBe('SIGKILL');
      // The next flush was due FLUSH_MS after the one seen; killed well before it, the 5 were never flushed.
      if (killedAfterMs > FLUSH_MS / 2)
        return ctx.skip(`the 5 checks and the kill took ${Math.round(killedAfterMs)} ms: a flush may have run between`);
      console.info(`killed ${Math.round(killedAfterMs)} ms after the flush of 7: ${await countedOk(sql, id)} counted`);
      expect(await countedOk(sql, id)).toBe(7);

      const second = await startInstance('second', databaseUrl, env);
      onTestFinished(() => second.stop('SIGKILL').then(() => {}));
      for (let i = 0; i < 3; i++) expect(await apiStatus(second, secret, WHOAMI)).toBe(200);
      expect(await second.stop('SIGTERM')).toBe(0); // a clean stop flushes
      expect(await countedOk(sql, id)).toBe(10);
    },
  );
});
