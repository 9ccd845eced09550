import type { Redis } from 'ioredis';
import type { RunReport } from '../shared/failure-streak.ts';

/**
 * Connects to the Redis the failure throttles share. ioredis is loaded only here, when a
 * REDIS_URL is set: its `class VerbatimString extends String` leaves `String.prototype` in V8's
 * slow dictionary mode until an instance of the subclass exists, which slows every string
 * operation in the process (docs/performance.md). A property stored on any object whose prototype
 * is String.prototype makes V8 turn it back into a fast one, so one is stored here, right after
 * the import; test/unit/throttle/string-prototype-fast.test.ts checks the result.
 */
export async function connectRedis(url: string, connection: RunReport): Promise<Redis> {
  const { Redis } = await import('ioredis');
  restoreFastStringPrototype();
  // Fail fast while Redis is down, so throttling falls back to memory instead of queueing.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  // ioredis reports each failed (re)connection: an outage is one warning and a count (FailureStreak),
  // and coming back ('ready') is logged as a recovery.
  redis.on('error', (error) => connection.failed(error));
  redis.on('ready', () => connection.succeeded());
  return redis;
}

/**
 * What VerbatimString's constructor does to its instances, done to a plain String object. A plain
 * store: `Object.assign` or `defineProperty` take another path in V8 and leave the prototype slow.
 */
function restoreFastStringPrototype(): void {
  const marker = Object('') as { format?: string };
  marker.format = 'txt';
}
