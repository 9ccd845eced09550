/**
 * What one key cache entry costs in memory: N keys' facts built as the server builds them (the
 * row's strings decoded one by one, `keyFactsOf`), filled into a `KeyCache` by digest, with and
 * without whoami's cached body; the heap's growth after full collections, per entry.
 * `node bench/cache-entry-size.ts [N]` (Node 24, as `npm run bench` runs; N defaults to 100,000).
 * docs/operations.md (Memory) states the result; test/unit/revocation/key-cache-memory.test.ts holds it.
 */
import { createHash } from 'node:crypto';
import { keyFactsOf, type KeyFacts } from '../src/keys/key-facts.ts';
import { KeyCache } from '../src/revocation/key-cache.ts';
import { storedFactsOf, type StoredKind } from '../test/support/facts.ts';
import { retainedBytes } from '../test/support/heap.ts';

const N = Number(process.argv[2] ?? 100_000);
const KINDS: Record<StoredKind, string> = {
  system: 'system authority, no limits',
  creator: 'creator authority, no limits',
  limited: 'creator authority, rate limit + quota + allowlist',
};

const digestOf = (n: number) => createHash('sha256').update(`key ${n}`).digest('hex');
const perEntry = (build: () => unknown) => retainedBytes(build) / N;

function filled(kind: StoredKind, withBody: boolean) {
  const cache = new KeyCache<KeyFacts>({ maxEntries: N, maxAgeMs: 60_000 });
  const bodies: string[] = [];
  for (let n = 0; n < N; n++) {
    const facts = keyFactsOf(storedFactsOf(n, kind));
    cache.fill(digestOf(n), facts, cache.currentEpoch());
    // whoami's body, kept per principal once the key calls whoami (src/http/routes/public-api.ts).
    if (withBody) bodies.push(Buffer.from(JSON.stringify(facts.principal), 'latin1').toString('latin1'));
  }
  return { cache, bodies };
}

const rows: Array<[string, number]> = [
  ['an empty cache sized for N (preallocated slots)', perEntry(() => new KeyCache({ maxEntries: N, maxAgeMs: 1 }))],
  ['a digest alone (64 hex characters)', perEntry(() => Array.from({ length: N }, (_, n) => digestOf(n)))],
];
for (const [kind, label] of Object.entries(KINDS) as Array<[StoredKind, string]>) {
  rows.push([
    `${label}: facts alone`,
    perEntry(() => Array.from({ length: N }, (_, n) => keyFactsOf(storedFactsOf(n, kind)))),
  ]);
  rows.push([`${label}: cache entry`, perEntry(() => filled(kind, false))]);
  rows.push([`${label}: cache entry + whoami body`, perEntry(() => filled(kind, true))]);
}

console.log(`${N} entries, Node ${process.version}: bytes per entry (heap and array buffers, after full GC)`);
for (const [what, bytes] of rows) console.log(`${bytes.toFixed(0).padStart(7)}  ${what}`);
