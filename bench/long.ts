/**
 * `--long`: 1,000,000 keys across 1,000 tenants in PostgreSQL (seeded in SQL batches), then the
 * first request of never-seen keys at 10 connections (p99), then 200,000 more distinct keys and
 * the server's RSS afterwards (the key cache must stay bounded).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { checksumOf } from '../src/keys/format/checksum.ts';
import { digestSecret, KEY_ALPHABET, KEY_PREFIX } from '../src/keys/format/secret.ts';
import type { AirkeyReady } from './airkey-server.ts';
import { load, type Server } from './measure.ts';
import { atMost, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';

// BENCH_LONG_KEYS scales the run down to try the harness itself.
const KEYS = Number(process.env.BENCH_LONG_KEYS ?? 1_000_000);
const TENANTS = 1_000;
const BATCH = 50_000;
const DISTINCT = Math.min(200_000, KEYS);
const COLD = 20_000;

/** Key number `n`, deterministic: 58 characters made from n in base 62, then the checksum. */
export function seededKey(n: number): string {
  let digits = '';
  let value = n;
  // Exactly eight base-62 digits (62^8 > 2e14): no padding character that is also a digit.
  for (let place = 0; place < 8; place++) {
    digits = KEY_ALPHABET[value % 62]! + digits;
    value = Math.floor(value / 62);
  }
  const body = `bench${digits}`.padEnd(58, 'X');
  return KEY_PREFIX + body + checksumOf(KEY_PREFIX + body);
}

async function seed(url: string, log: (line: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    const { rows } = await client.query<{ id: string }>(
      `insert into tenants (slug, name, key_authority)
       select 'bench-' || i, 'Bench tenant ' || i, 'system' from generate_series(1, ${TENANTS}) i returning id`,
    );
    const tenantIds = rows.map((row) => row.id);
    for (let start = 0; start < KEYS; start += BATCH) {
      const tenants: string[] = [];
      const hints: string[] = [];
      const digests: string[] = [];
      for (let n = start; n < Math.min(start + BATCH, KEYS); n++) {
        const secret = seededKey(n);
        tenants.push(tenantIds[n % TENANTS]!);
        hints.push(`${KEY_PREFIX}…${secret.slice(-4)}`);
        digests.push(digestSecret(secret));
      }
      await client.query(
        `insert into api_keys (tenant_id, name, hint, secret_digest)
         select t, 'bench', h, d from unnest($1::uuid[], $2::text[], $3::text[]) as u(t, h, d)`,
        [tenants, hints, digests],
      );
    }
    await client.query('analyze api_keys');
    log(`    seeded ${KEYS} keys across ${TENANTS} tenants in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await client.end();
  }
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export async function longRun(
  url: string,
  s: Settings,
  start: (env: Record<string, string>) => Promise<Server<AirkeyReady>>,
  startBare: (databaseUrl: string) => Promise<Server<{ url: string }>>,
): Promise<Row[]> {
  s.log(`--long: cold path over ${KEYS} keys`);
  const server = await start({});
  const bare = await startBare(url);
  try {
    await seed(url, s.log);
    const rssBefore = rssMb(server.child.pid!);
    // The keys are made before the clock starts: building one per request would load the client.
    const keys = Array.from({ length: Math.min(KEYS, COLD + DISTINCT) }, (_, n) => seededKey(n));
    let next = 0;
    const fresh = () => ({ 'x-api-key': keys[next++ % keys.length]! });
    // The reference: a bare Fastify route that looks every key up with the same query through the same driver.
    const others = Array.from({ length: COLD }, (_, n) => seededKey(KEYS - 1 - n));
    let other = 0;
    const lookup = await load({
      url: `${bare.info.url}/lookup`,
      connections: 10,
      amount: COLD,
      headersFor: () => ({ 'x-api-key': others[other++ % COLD]! }),
    });
    const cold = await load({
      url: `${server.info.url}/api/v1/whoami`,
      connections: 10,
      amount: COLD,
      headersFor: fresh,
    });
    // The floor on this machine: the same client and connections on a key the server has cached.
    const known = { 'x-api-key': server.info.key };
    const warm = await load({
      url: `${server.info.url}/api/v1/whoami`,
      connections: 10,
      amount: COLD,
      headersFor: () => known,
    });
    s.log(`    cold: ${cold.rps.toFixed(0)} req/s, p50 ${cold.p50} ms, p99 ${cold.p99} ms, non-2xx ${cold.non2xx}`);
    s.log(
      `    bare route, one lookup per request: ${lookup.rps.toFixed(0)} req/s, p50 ${lookup.p50} ms, p99 ${lookup.p99} ms, non-2xx ${lookup.non2xx}`,
    );
    s.log(`    cached key, same client: ${warm.rps.toFixed(0)} req/s, p50 ${warm.p50} ms, p99 ${warm.p99} ms`);
    const more = await load({
      url: `${server.info.url}/api/v1/whoami`,
      connections: 10,
      amount: DISTINCT,
      headersFor: fresh,
    });
    const rss = rssMb(server.child.pid!);
    s.log(
      `    200k more distinct keys: ${more.rps.toFixed(0)} req/s, non-2xx ${more.non2xx}; RSS ${rss.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before the first request)`,
    );
    return [
      {
        what: `4. never-seen key of ${KEYS}, 10 connections: p99 ms (reference: bare route, same lookup)`,
        value: String(cold.p99),
        reference: String(lookup.p99),
        ratio: (cold.p99 / Math.max(lookup.p99, 1)).toFixed(2),
        measured: { value: cold.p99, ratio: cold.p99 / Math.max(lookup.p99, 1) },
        target: atMost(3, 'value', ' ms'),
        bad: cold.non2xx + cold.errors,
      },
      {
        what: `4. never-seen key: req/s (reference: bare route, same lookup)`,
        value: cold.rps.toFixed(0),
        reference: lookup.rps.toFixed(0),
        ratio: (cold.rps / lookup.rps).toFixed(2),
        measured: { value: cold.rps, ratio: cold.rps / lookup.rps },
      },
      {
        what: `4. RSS after ${next} distinct keys, MB`,
        value: rss.toFixed(0),
        reference: '300 MB',
        ratio: (rss / 300).toFixed(2),
        measured: { value: rss, ratio: rss / 300 },
        target: atMost(300, 'value', ' MB'),
        bad: more.non2xx + more.errors,
      },
    ];
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
  }
}

export const longScenario: Scenario = {
  name: 'long',
  title: `4. cold path at scale (${KEYS} keys, ${DISTINCT} distinct keys)`,
  engines: ['postgres'],
  alone: true,
  optIn: 'long',
  run: ({ databaseUrl, settings, airkey, bare }) =>
    longRun(databaseUrl!, settings, airkey, (url) =>
      bare({ whoami: null, engine: 'postgres', databaseUrl: url, tenantId: '' }),
    ),
};
