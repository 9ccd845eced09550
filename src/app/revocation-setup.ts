import type { Logger } from 'pino';
import type { KeyFacts } from '../keys/key-facts.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/handle.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Confirmation } from '../revocation/acknowledgements.ts';
import { ChangeFeed } from '../revocation/change-feed.ts';
import { KeyCache } from '../revocation/key-cache.ts';
import type { Clock } from '../shared/clock.ts';

export type RevocationDeps = {
  config: Config;
  clock: Clock;
  database: Database;
  metrics: Metrics;
  log: Pick<Logger, 'warn'>;
  onLapsed?: ((confirmation: Confirmation) => void) | undefined;
};

/**
 * The change feed and the key cache it keeps exact (docs/keys.md (Revocation)): every change
 * heard evicts what it touches, a new subscription starts the cache over, and the lease says
 * until when the cache may answer at all.
 */
export function openRevocation({ config, clock, database, metrics, log, onLapsed }: RevocationDeps) {
  for (const stage of ['send', 'listen']) metrics.backgroundFailed(`change_acknowledgement_${stage}`, 0);
  const changes = new ChangeFeed({
    database,
    revocationWaitMs: config.revocationWaitMs,
    now: () => clock.nowMs(),
    onAckFailed: (error, stage) => {
      metrics.backgroundFailed(`change_acknowledgement_${stage}`);
      log.warn({ err: error, stage }, 'a change acknowledgement failed; its writer waits for leases to run out');
    },
    ...(onLapsed ? { onLapsed } : {}),
  });
  const keyCache = new KeyCache<KeyFacts>({ maxEntries: config.keyCacheMaxEntries, maxAgeMs: config.keyCacheMaxAgeMs });
  changes.onChange((change) => keyCache.invalidate(change));
  // Listening again: what was missed meanwhile is unknown, so the cache starts over. Whether the
  // cache may answer at all is the lease's call, which outlives a short listener loss.
  changes.onState((listening) => listening && keyCache.resubscribed());
  changes.onLease((validUntil) => keyCache.serveUntil(validUntil));
  metrics.watch({ keyCache, changes });
  return { changes, keyCache };
}
