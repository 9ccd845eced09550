import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/handle.ts';
import { apiKeys } from '../../db/schema.ts';
import type { KeyRow } from '../key-rows.ts';

/**
 * The unused-key sweep's statements (docs/keys.md (Key policy)). Each claims its rows in one
 * `update ... returning`: with several instances sweeping at once, the second waits for the
 * first's row locks, re-reads the rows, finds them already claimed, and returns nothing.
 */

/** Since when a key is idle: the latest of its creation, its last use (as flushed) and its last enable. */
const IDLE_SINCE = sql.raw('greatest(k.created_at, k.last_used_at, k.active_since)');
const DAYS = sql.raw('p.disable_unused_after_days');

/** Keys the sweep looks at: of a tenant with the rule, enabled, neither expired nor retiring. */
function swept(now: string): SQL {
  return sql`p.tenant_id = k.tenant_id and ${DAYS} is not null and k.enabled and k.retires_at is null
    and (k.expires_at is null or k.expires_at > ${now}::timestamptz)`;
}

/** Idle for at least the policy's days. */
function pastThreshold(now: string): SQL {
  return sql`${IDLE_SINCE} <= ${now}::timestamptz - ${DAYS} * interval '1 day'`;
}

type Idle = { id: string; idleSince: Date; days: number };
/** A claimed key: its row, since when it is idle, and the policy's days. */
export type IdleKey = KeyRow & { idleSince: Date; days: number };

/**
 * `api_key.unused` once per idle stretch: keys idle for the policy's days less 7 (less half of
 * them, for a rule of 14 days or fewer) and not yet past them. The notice remembers the idle-since
 * instant it was sent for, so a use or an enable, which moves that instant, makes it due again.
 */
export async function claimUnusedNotices(tx: Db, now: Date): Promise<IdleKey[]> {
  const at = now.toISOString();
  const result: unknown = await tx.execute(sql`
    update api_keys k set unused_notice_for = ${IDLE_SINCE}
    from key_policies p
    where ${swept(at)}
      and ${IDLE_SINCE} <= ${at}::timestamptz - (${DAYS} - least(7, ${DAYS} / 2.0)) * interval '1 day'
      and not (${pastThreshold(at)})
      and k.unused_notice_for is distinct from ${IDLE_SINCE}
    returning k.id, k.unused_notice_for as idle_since, ${DAYS} as days`);
  return withRows(tx, idleRows(result));
}

/**
 * The first step of disabling: marks keys past the threshold with the idle-since instant they
 * were found at, and when. Nothing is disabled yet (see UnusedKeySweep for why).
 */
export async function markUnused(tx: Db, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const result: unknown = await tx.execute(sql`
    update api_keys k set unused_claim_for = ${IDLE_SINCE}, unused_claimed_at = ${at}::timestamptz
    from key_policies p
    where ${swept(at)} and ${pastThreshold(at)} and k.unused_claim_for is distinct from ${IDLE_SINCE}
    returning k.id`);
  return (result as { rows: Array<{ id: string }> }).rows.map((row) => row.id);
}

/**
 * The second step: disables the marked keys whose idle-since instant has not moved since they were
 * marked at least `graceMs` ago (a use flushed meanwhile moves it, and the key stays enabled).
 */
export async function disableMarkedUnused(tx: Db, now: Date, graceMs: number): Promise<IdleKey[]> {
  const at = now.toISOString();
  const result: unknown = await tx.execute(sql`
    update api_keys k set enabled = false, disabled_reason = 'unused'
    from key_policies p
    where ${swept(at)} and ${pastThreshold(at)}
      and k.unused_claim_for = ${IDLE_SINCE}
      and k.unused_claimed_at <= ${at}::timestamptz - ${graceMs} * interval '1 millisecond'
    returning k.id, k.unused_claim_for as idle_since, ${DAYS} as days`);
  return withRows(tx, idleRows(result));
}

/** The claimed keys' rows as they are now (after the claim), in the same transaction. */
async function withRows(tx: Db, idle: Idle[]): Promise<IdleKey[]> {
  if (idle.length === 0) return [];
  const byId = new Map(idle.map((each) => [each.id, each]));
  const rows = await tx
    .select()
    .from(apiKeys)
    .where(inArray(apiKeys.id, [...byId.keys()]));
  return rows.map((row) => ({ ...row, idleSince: byId.get(row.id)!.idleSince, days: byId.get(row.id)!.days }));
}

function idleRows(result: unknown): Idle[] {
  const { rows } = result as { rows: Array<{ id: string; idle_since: string | Date; days: number }> };
  return rows.map((row) => ({ id: row.id, idleSince: new Date(row.idle_since), days: Number(row.days) }));
}
