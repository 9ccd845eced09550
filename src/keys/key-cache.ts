import { LRUCache } from 'lru-cache';
import type { KeyChange } from '../bus/change.ts';
import type { KeyFacts } from './principal.ts';

export type KeyCacheOptions = { maxEntries: number; maxAgeMs: number };

// A stored null means "no such key": repeated unknown keys cost no query. `freshUntil` is when
// `maxAgeMs` runs out: an older entry is no longer served, but is kept (bounded by the LRU) as
// proof that this instance knew the key (see `knewValid`).
type Entry = { facts: KeyFacts | null; freshUntil: number };

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
  private readonly maxAgeMs: number;
  readonly stats: KeyCacheStats = { hits: 0, misses: 0, evictions: 0 };

  constructor(options: KeyCacheOptions) {
    this.entries = new LRUCache<string, Entry>({ max: options.maxEntries });
    this.maxAgeMs = options.maxAgeMs;
  }

  /** `undefined` is a miss; `null` is a cached "no such key". */
  get(digest: string): KeyFacts | null | undefined {
    const entry = this.trusted ? this.entries.get(digest) : undefined;
    if (entry === undefined || entry.freshUntil <= performance.now()) {
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
    if (epochAtRead === this.epoch) this.entries.set(digest, { facts, freshUntil: performance.now() + this.maxAgeMs });
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
   * when it went away still holds (SPEC §6: a cached key keeps working). `maxAgeMs` bounds it.
   */
  lastKnown(digest: string): KeyFacts | null | undefined {
    const entry = this.entries.get(digest);
    return entry !== undefined && entry.freshUntil > performance.now() ? entry.facts : undefined;
  }

  /**
   * True when this instance cached the digest as a real key and no change it heard has evicted it
   * since, even if the entry has aged out: re-reading such a key is not a guess, so it needs none
   * of a blocked client's lookup budget (a flood of guesses must not lock out a valid key whose
   * entry merely expired). Evictions by a change, and a feed outage, drop the entry, so this
   * never vouches for a key changed since.
   */
  knewValid(digest: string): boolean {
    return this.trusted && (this.entries.peek(digest)?.facts ?? null) !== null;
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
