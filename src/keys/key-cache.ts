import { LRUCache } from 'lru-cache';
import type { KeyChange } from '../bus/change.ts';
import type { KeyFacts } from './principal.ts';

export type KeyCacheOptions = { maxEntries: number; maxAgeMs: number };

// A stored null means "no such key": repeated unknown keys cost no query.
type Entry = { facts: KeyFacts | null };

export type KeyCacheStats = { hits: number; misses: number; evictions: number };

/**
 * Bounded, in-process cache of key facts by digest. Every change is evicted synchronously by
 * `invalidate`; `maxAgeMs` is only the last safety net. A fill that started before an
 * invalidation is discarded (the epoch moved), so a slow read cannot resurrect stale facts.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, Entry>;
  private epoch = 0;
  private trusted = true;
  readonly stats: KeyCacheStats = { hits: 0, misses: 0, evictions: 0 };

  constructor(options: KeyCacheOptions) {
    this.entries = new LRUCache<string, Entry>({ max: options.maxEntries, ttl: options.maxAgeMs });
  }

  /** `undefined` is a miss; `null` is a cached "no such key". */
  get(digest: string): KeyFacts | null | undefined {
    const entry = this.trusted ? this.entries.get(digest) : undefined;
    if (entry === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return entry.facts;
  }

  /** Call before reading the database; pass the result to `fill`. */
  currentEpoch(): number {
    return this.epoch;
  }

  fill(digest: string, facts: KeyFacts | null, epochAtRead: number): void {
    // Kept while untrusted too, though not served: it is the freshest `lastKnown`.
    if (epochAtRead === this.epoch) this.entries.set(digest, { facts });
  }

  invalidate(change: KeyChange): void {
    this.epoch++;
    if (change.type === 'all') {
      this.stats.evictions += this.entries.size;
      this.entries.clear();
      return;
    }
    // Changes are rare next to checks, so a scan beats keeping reverse indexes in sync.
    for (const [digest, { facts }] of this.entries.entries()) {
      if (facts !== null && matches(facts, change)) {
        this.entries.delete(digest);
        this.stats.evictions++;
      }
    }
  }

  /**
   * The facts last seen for a digest, even while untrusted; `undefined` when none. Only for a
   * database that cannot be reached: then no instance can change a key through it, so what held
   * when it went away still holds (docs/api.md, 429 and 503: a cached key keeps working). `maxAgeMs` bounds it.
   */
  lastKnown(digest: string): KeyFacts | null | undefined {
    return this.entries.get(digest)?.facts;
  }

  /**
   * While the change feed is down this instance cannot know what other instances changed, so it
   * stops answering from the cache until the feed is back (read-through, never stale); the
   * entries stay only as `lastKnown` for a database outage. Coming back drops them all and moves
   * the epoch: a read that began while deaf may predate a change this instance never heard, so
   * its fill must not be kept.
   */
  setTrusted(trusted: boolean): void {
    if (trusted) this.invalidate({ type: 'all' });
    else this.epoch++;
    this.trusted = trusted;
  }

  get size(): number {
    return this.entries.size;
  }
}

function matches(facts: KeyFacts, change: Exclude<KeyChange, { type: 'all' }>): boolean {
  switch (change.type) {
    case 'key':
      return facts.keyId === change.id;
    case 'user':
      return facts.creatorId === change.id;
    case 'tenant':
      return facts.tenantId === change.id;
  }
}
