import type { ChangeFeed } from '../revocation/change-feed.ts';
import type { Database } from '../db/handle.ts';
import { monotonicClock } from '../shared/clock.ts';

export type ReadinessChecks = { database: boolean; change_feed: boolean; lease: boolean };
export type Readiness = { check(): Promise<ReadinessChecks> };

/**
 * Readiness without handing the adapters storage: the database answers a ping, the change feed
 * listens. `lease` says whether the instance may answer from its cache (docs/keys.md (Revocation)).
 */
export function readinessOf(database: Database, changes: ChangeFeed): Readiness {
  return {
    async check() {
      const checks = {
        database: false,
        change_feed: changes.listening,
        lease: monotonicClock() < changes.leaseValidUntil,
      };
      try {
        await database.ping();
        checks.database = true;
      } catch {
        // reported as database: false
      }
      return checks;
    },
  };
}
