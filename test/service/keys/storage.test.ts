import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Harness } from '../../support/harness.ts';
import { useHarness } from '../../support/use.ts';
import { ENGINES } from '../../support/databases.ts';
import { START } from '../../support/manual-clock.ts';
import { auditActions, tenantWithUser } from '../../support/actors.ts';
import type { ApiKeyView } from '../../../src/keys/key-schemas.ts';

async function rows(h: Harness, query: ReturnType<typeof sql>): Promise<Array<Record<string, unknown>>> {
  const result = await rowsOf<Record<string, unknown>>(h, query);
  return result.rows;
}

/** Every row of every table, as text. */
async function everyRowAsText(h: Harness): Promise<string[]> {
  const tables = await rows(
    h,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const text: string[] = [];
  for (const { table_name } of tables) {
    for (const row of await rows(h, sql.raw(`select t::text as row from "${String(table_name)}" t`)))
      text.push(String(row.row));
  }
  return text;
}

describe.each(ENGINES)('what the database keeps (%s)', (engine) => {
  const h = useHarness({ engine, now: START, rewindClock: true });

  it('stores only the SHA-256 digest of a key: no column of any table holds the secret', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'digest only' });
    const [stored] = await rows(h, sql`select * from api_keys where id = ${api_key.id}`);
    expect(stored!.secret_digest).toBe(createHash('sha256').update(secret).digest('hex'));
    for (const value of Object.values(stored!)) expect(String(value)).not.toContain(secret.slice(4));
    const everything = await everyRowAsText(h);
    expect(everything.length).toBeGreaterThan(3);
    expect(everything.filter((row) => row.includes(secret.slice(4)) || row.includes(secret.slice(4, 20)))).toEqual([]);
  });

  it('records last use write-behind: nothing is written by the check, the flush writes the time of use', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'used' });
    h.clock.set('2026-11-22T13:00:00Z');
    expect((await h.services.keys.check.check(secret, 'usage')).ok).toBe(true);
    h.clock.set('2026-11-22T13:05:00Z');
    expect((await h.services.keys.check.check(secret, 'usage')).ok).toBe(true);
    expect((await h.services.keys.lifecycle.list(actor)).data[0]!.last_used_at).toBeNull();
    await h.services.keys.lastUse.flush();
    expect((await h.services.keys.lifecycle.list(actor)).data[0]).toMatchObject({
      id: api_key.id,
      last_used_at: '2026-11-22T13:05:00.000Z',
    });
  });

  it('never moves last use backwards', async () => {
    const { actor } = await tenantWithUser(h);
    const { secret } = await h.services.keys.lifecycle.create(actor, { name: 'monotonic' });
    h.clock.set('2026-11-22T15:00:00Z');
    await h.services.keys.check.check(secret, 'usage');
    await h.services.keys.lastUse.flush();
    h.clock.set('2026-11-22T14:00:00Z');
    await h.services.keys.check.check(secret, 'usage');
    await h.services.keys.lastUse.flush();
    expect((await h.services.keys.lifecycle.list(actor)).data[0]!.last_used_at).toBe('2026-11-22T15:00:00.000Z');
  });

  it('does not record use of a rejected key', async () => {
    const { actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, { name: 'disabled, unused' });
    await h.services.keys.lifecycle.setEnabled(actor, api_key.id, false);
    expect((await h.services.keys.check.check(secret, 'usage')).ok).toBe(false);
    await h.services.keys.lastUse.flush();
    expect((await h.services.keys.lifecycle.list(actor)).data[0]!.last_used_at).toBeNull();
  });

  it('writes one api_key.expired event per key once it has expired, by the system', async () => {
    const { tenant, actor } = await tenantWithUser(h);
    const { api_key, secret } = await h.services.keys.lifecycle.create(actor, {
      name: 'sweep',
      expires_at: '2026-11-24',
    });
    await h.services.keys.lifecycle.create(actor, { name: 'no expiry' });
    h.clock.set('2026-11-23T23:59:59.999Z');
    await h.services.keys.lifecycle.recordExpiries();
    expect((await auditActions(h, tenant.id)).filter((e) => e.action === 'api_key.expired')).toEqual([]);
    expect((await h.services.keys.check.check(secret, 'sweep')).ok).toBe(true);

    h.clock.set('2026-11-24T00:00:00.000Z');
    expect(await h.services.keys.check.check(secret, 'sweep')).toEqual({ ok: false, reason: 'api_key_expired' });
    expect(await h.services.keys.lifecycle.recordExpiries()).toBeGreaterThanOrEqual(1);
    expect(await h.services.keys.lifecycle.recordExpiries()).toBe(0);
    const expired = (await auditActions(h, tenant.id)).filter((e) => e.action === 'api_key.expired');
    expect(expired).toEqual([
      expect.objectContaining({
        actor: { type: 'system', id: null, email: null },
        target: { type: 'api_key', id: api_key.id, name: 'sweep' },
        detail: { hint: api_key.hint, expired_at: '2026-11-24T00:00:00.000Z' },
      }),
    ]);
  });

  it('lists every instant exactly as created, to the millisecond, whatever its fraction', async () => {
    const { actor } = await tenantWithUser(h);
    const created: ApiKeyView[] = [];
    for (const at of [
      '2026-11-22T13:00:00.000Z',
      '2026-11-22T13:00:01.100Z',
      '2026-11-22T13:00:02.120Z',
      '2026-11-22T13:00:03.123Z',
    ]) {
      h.clock.set(at);
      created.push(
        (await h.services.keys.lifecycle.create(actor, { name: `at ${at}`, expires_at: '2027-01-31' })).api_key,
      );
    }
    const listed = (await h.services.keys.lifecycle.list(actor)).data;
    expect(listed.map((key) => key.created_at).sort()).toEqual([
      '2026-11-22T13:00:00.000Z',
      '2026-11-22T13:00:01.100Z',
      '2026-11-22T13:00:02.120Z',
      '2026-11-22T13:00:03.123Z',
    ]);
    // The list reads its instants as strings from SQL; creation answers from Dates: the same view.
    expect(listed.slice().sort((a, b) => a.created_at.localeCompare(b.created_at))).toEqual(created);
    expect(listed[0]).toMatchObject({
      expires_at: '2027-01-31',
      expires_at_time: '2027-01-31T00:00:00.000Z',
      status: 'enabled',
    });
    // PostgreSQL keeps microseconds; the API shows milliseconds, cut as a Date would.
    await h.services.database.db.execute(
      sql`update api_keys set last_used_at = '2026-11-22 14:00:00.123456+00' where id = ${created[0]!.id}`,
    );
    const used = (await h.services.keys.lifecycle.list(actor)).data.find((key) => key.id === created[0]!.id);
    expect(used?.last_used_at).toBe('2026-11-22T14:00:00.123Z');
  });
});
