import { hostname } from 'node:os';

/**
 * The lease an instance holds on a shared PostgreSQL (docs/keys.md (Revocation)): it may answer a key check from its
 * cache only while the lease is valid; a revoking write waits for it to acknowledge the change or
 * for the lease to have run out, so once the writer answers, no instance serves the old facts.
 *
 * Two clocks, never compared with each other:
 * - the instance measures its lease on its own monotonic clock from the moment it SENT the renewal
 *   (`performance.now()` before the round trip), minus a margin; the database ran the renewal later
 *   than that, so the instance's lease always ends before the one the database recorded;
 * - the database records `lease_until = now() + length` with its own clock, and writers compare it
 *   with the database's `now()` too, adding a margin for the rate at which clocks drift apart
 *   (not their offset: one clock is read on each side).
 */
export type LeaseTerms = {
  /** How long one renewal holds. */
  lengthMs: number;
  /** How often the renewal runs: several times per lease, so a late one or two cost nothing. */
  renewEveryMs: number;
  /** Taken off the instance's own end of the lease and added to the writer's wait. */
  marginMs: number;
};

const MAX_LEASE_MS = 1_000;

/** A lease short enough that a writer's wait for an unreachable instance fits in `revocationWaitMs`. */
export function leaseTerms(revocationWaitMs: number): LeaseTerms {
  const lengthMs = Math.min(MAX_LEASE_MS, Math.floor(revocationWaitMs / 2));
  return {
    lengthMs,
    renewEveryMs: Math.max(10, Math.floor(lengthMs / 4)),
    marginMs: Math.max(5, Math.floor(lengthMs / 20)),
  };
}

/** Until when (performance.now() units) a renewal sent at `sentAt` lets this instance use its cache. */
export function leaseValidUntil(terms: LeaseTerms, sentAt: number): number {
  return sentAt + terms.lengthMs - terms.marginMs;
}

/** Registers or renews this instance; run on the listening connection (see FeedHandlers.onAlive). */
export function renewalQuery(
  instanceId: string,
  terms: LeaseTerms,
): { text: string; values: unknown[]; everyMs: number } {
  return {
    text: `insert into instances (id, pid, host, heartbeat_at, lease_until)
           values ($1, $2, $3, now(), now() + $4 * interval '1 millisecond')
           on conflict (id) do update set heartbeat_at = excluded.heartbeat_at, lease_until = excluded.lease_until`,
    values: [instanceId, process.pid, hostname(), terms.lengthMs],
    everyMs: terms.renewEveryMs,
  };
}
