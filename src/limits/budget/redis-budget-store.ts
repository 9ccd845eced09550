import type { Redis } from 'ioredis';
import { SLICE_DIVISOR, type BudgetStore, type Lease, type LeaseRequest } from './lease.ts';

/** Kept a minute past the window's end, so clocks that differ a little still find it. */
const GRACE_MS = 60_000;

// KEYS[1]: the window's counter. ARGV: limit, slice divisor, expiry (ms), largest slice. Returns {granted, used}.
// Redis runs a script atomically, so the grants of all instances never sum past the limit.
const LEASE_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
local remaining = limit - used
if remaining <= 0 then return {0, used} end
local granted = math.min(remaining, tonumber(ARGV[4]), math.max(1, math.ceil(remaining / tonumber(ARGV[2]))))
used = redis.call('INCRBY', KEYS[1], granted)
if used == granted then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {granted, used}
`;

/**
 * With REDIS_URL set, the counts of leased budget live in Redis, one counter per key and window
 * that expires after the window. The window's length is part of the name, so a key whose window
 * changes never shares a counter that expires too early.
 */
export class RedisBudgetStore implements BudgetStore {
  private readonly redis: Redis;
  constructor(redis: Redis) {
    this.redis = redis;
  }

  async lease({ keyId, windowStart, windowMs, limit, maxSlice, now }: LeaseRequest): Promise<Lease> {
    // Commands are not queued while disconnected (connectRedis): a lease made as the process starts
    // waits for the first connection instead of failing.
    if (this.redis.status === 'connecting' || this.redis.status === 'connect') await ready(this.redis);
    const counter = `airkey:rate:${keyId}:${windowMs}:${windowStart}`;
    const expiresInMs = Math.max(1, windowStart + windowMs - now) + GRACE_MS;
    const answer = (await this.redis.eval(
      LEASE_SCRIPT,
      1,
      counter,
      limit,
      SLICE_DIVISOR,
      expiresInMs,
      Math.min(maxSlice, limit),
    )) as [number, number];
    return { granted: Number(answer[0]), used: Number(answer[1]) };
  }
}

const FIRST_CONNECTION_WAIT_MS = 1_000;

function ready(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, FIRST_CONNECTION_WAIT_MS);
    redis.once('ready', done);
  });
}
