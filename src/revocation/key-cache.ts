import { LRUCache } from 'lru-cache';
import { monotonicClock, type MonotonicClock } from '../shared/clock.ts';
import type { KeyChange } from './change.ts';

export type KeyCacheOptions = {
  maxEntries: number;
  maxAgeMs: number;
  /** Measures entries' age and the lease; the lease's instants are on this clock too. */
  monotonic?: MonotonicClock;
};

/** What a change is matched against: the key check's facts carry more, the cache needs these. */
export type CachedFacts = {
  keyId: string;
  tenantId: string;
  creatorId: string | null;
  /** An access token's grant (src/oauth/token-facts.ts); a key has none. */
  grantId?: string;
};

// A stored null means "no such key": repeated unknown keys cost no query. `freshUntil` is when
// `maxAgeMs` runs out: an older entry is no longer served, but is kept (bounded by the LRU) as
// proof that this instance knew the key (see `knewValid`).
type Entry<F> = { facts: F | null; freshUntil: number };

export type KeyCacheStats = { hits: number; misses: number; evictions: number };

/**
 * Bounded, in-process cache of key facts by digest. Every change is evicted synchronously by
 * `invalidate`; `maxAgeMs` is only the last safety net. A fill that started before an
 * invalidation is discarded (the epoch moved), so a slow read cannot resurrect stale facts.
 * Nothing is answered from it outside the instance's lease (`serveUntil`, docs/keys.md (Revocation)).
 */
export class KeyCache<F extends CachedFacts> {
  private readonly entries: LRUCache<string, Entry<F>>;
  private epoch = 0;
  /** Monotonic instant until which entries may be answered: the lease (src/revocation/lease.ts). */
  private servingUntil = Number.POSITIVE_INFINITY;
  private readonly maxAgeMs: number;
  private readonly monotonic: MonotonicClock;
  readonly stats: KeyCacheStats = { hits: 0, misses: 0, evictions: 0 };

  constructor(options: KeyCacheOptions) {
    this.entries = new LRUCache<string, Entry<F>>({ max: options.maxEntries });
    this.maxAgeMs = options.maxAgeMs;
    this.monotonic = options.monotonic ?? monotonicClock;
  }

  /** `undefined` is a miss; `null` is a cached "no such key". */
  get(digest: string): F | null | undefined {
    // Comparisons against numbers: the lease and age checks cost nothing on the hot path.
    const now = this.monotonic();
    const entry = now < this.servingUntil ? this.entries.get(digest) : undefined;
    if (entry === undefined || entry.freshUntil <= now) {
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

  fill(digest: string, facts: F | null, epochAtRead: number): void {
    // Kept outside the lease too, though not served until the lease is renewed.
    if (epochAtRead === this.epoch) this.entries.set(digest, { facts, freshUntil: this.monotonic() + this.maxAgeMs });
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
   * The facts last seen for a digest while the lease holds, `undefined` otherwise. For a database
   * read that failed: within the lease every change was heard (a writer waits for this instance's
   * acknowledgement or for its lease to run out), so what is cached still holds (docs/keys.md,
   * Revocation). Past the lease nothing here can be vouched for: a partitioned instance cannot tell a
   * database outage from a revocation it did not hear.
   */
  lastKnown(digest: string): F | null | undefined {
    const now = this.monotonic();
    const entry = now < this.servingUntil ? this.entries.get(digest) : undefined;
    return entry !== undefined && entry.freshUntil > now ? entry.facts : undefined;
  }

  /**
   * True when this instance cached the digest as a real key and no change it heard has evicted it
   * since, even if the entry has aged out: re-reading such a key is not a guess, so it needs none
   * of a blocked client's lookup budget (a flood of guesses must not lock out a valid key whose
   * entry merely expired). The re-read itself decides; this only says it is worth the lookup.
   */
  knewValid(digest: string): boolean {
    return (this.entries.peek(digest)?.facts ?? null) !== null;
  }

  /** The lease: entries are answered until `validUntil` (on the monotonic clock). */
  serveUntil(validUntil: number): void {
    this.servingUntil = validUntil;
  }

  /**
   * The change feed (re)subscribed: changes sent while it was not may never be heard, so every
   * entry goes and the epoch moves (a read that began before may predate such a change).
   */
  resubscribed(): void {
    this.invalidate({ type: 'all' });
  }

  get size(): number {
    return this.entries.size;
  }
}

function matches(facts: CachedFacts, change: Exclude<KeyChange, { type: 'all' }>): boolean {
  switch (change.type) {
    case 'key':
      return facts.keyId === change.id;
    case 'user':
      return facts.creatorId === change.id;
    case 'tenant':
      return facts.tenantId === change.id;
    // A key belongs to no OAuth grant (its grantId is undefined); an access token's facts do.
    case 'grant':
      return facts.grantId === change.id;
  }
}
