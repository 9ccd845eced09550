import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { RunReport } from '../shared/failure-streak.ts';

/**
 * Connects to the Redis the failure throttles share. ioredis is loaded only here, when a
 * REDIS_URL is set: its `class VerbatimString extends String` leaves `String.prototype` in V8's
 * slow dictionary mode until an instance of the subclass exists, which slows every string
 * operation in the process (docs/performance.md). So one instance is made here, and
 * test/unit/string-prototype-fast.test.ts checks the result.
 */
export async function connectRedis(url: string, connection: RunReport): Promise<Redis> {
  const { Redis } = await import('ioredis');
  instantiateVerbatimStringOnce();
  // Fail fast while Redis is down, so throttling falls back to memory instead of queueing.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  // ioredis reports each failed (re)connection: an outage is one warning and a count (FailureStreak),
  // and coming back ('ready') is logged as a recovery.
  redis.on('error', (error) => connection.failed(error));
  redis.on('ready', () => connection.succeeded());
  return redis;
}

/** An internal module of ioredis 6: if a later version moves it, the server still starts (slower), and the test fails. */
function instantiateVerbatimStringOnce(): void {
  try {
    const require = createRequire(import.meta.url);
    const { VerbatimString } = require('ioredis/built/resp/verbatim-string.js') as {
      VerbatimString: new (format: string, value: string) => unknown;
    };
    new VerbatimString('txt', '');
  } catch {
    // Speed is not worth a failed start.
  }
}
