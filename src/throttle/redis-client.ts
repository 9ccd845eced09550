import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * Connects to the Redis the failure throttles share. ioredis is loaded only here, when a
 * REDIS_URL is set, because loading it slows every string in the process:
 *
 * ioredis defines `class VerbatimString extends String` (its RESP3 decoder). In V8, defining a
 * subclass of String turns `String.prototype` into a slow, dictionary-mode object, and it stays
 * so until a property is stored on an instance of the subclass. VerbatimString's constructor
 * stores one, but a RESP2 connection never makes an instance. While it is slow, every
 * `str.charCodeAt(i)` in the process runs 3–5× slower (Node 20 and 24 alike). The router, the
 * serializers' string escaping and the key check all call it per request: a 1,000-key list took
 * 2.1 ms to serialise instead of 0.6. V8 sometimes makes it fast again by itself: in the running
 * server within the first requests, in a script that only timed the serializer never. So one
 * instance is made here, and test/unit/string-prototype-fast.test.ts checks the result.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  instantiateVerbatimStringOnce();
  // Fail fast while Redis is down, so throttling falls back to memory instead of queueing.
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => {});
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
