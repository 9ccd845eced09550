/**
 * What the request log costs PostgreSQL, per entry, in its two shapes (docs/request-log.md (The
 * block)): a row per entry, as versions before drizzle/0018 wrote it (four indexes), and a block per
 * tenant, minute and batch, as the writer writes it now (the repository's statement). Same
 * entries, whoami-like: 10 tenants, 100 keys, 3 % refusals. On PostgreSQL, the CPU of the one
 * backend (/proc) and of this process building and sending the statements; on PGlite
 * (`--engine=pglite`, its text parameters, as the log's thread sends them), this process's, which
 * runs the database too.
 * Usage: node bench/row-shapes.ts [--engine=postgres|pglite] [--batches=100] [--rounds=3]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/handle.ts';
import { RequestLogPartitions } from '../src/request-log/request-log-partitions.ts';
import { RequestLogRepository } from '../src/request-log/request-log-repository.ts';
import type { RequestRecord } from '../src/request-log/request-record.ts';
import { recordFor } from '../test/support/request-log-kit.ts';
import { insertRows } from '../test/support/request-log-rows.ts';
import { throwawayPostgres } from './postgres.ts';
import { asRows } from '../src/request-log/request-columns.ts';

const { values: options } = parseArgs({
  options: {
    batches: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    engine: { type: 'string', default: 'postgres' },
  },
});
const BATCHES = Number(options.batches);

const EMBEDDED = options.engine === 'pglite';
const database = EMBEDDED ? undefined : await throwawayPostgres(process.env.BENCH_DATABASE_URL);
if (!EMBEDDED && !database) throw new Error('no PostgreSQL answers at 127.0.0.1:5432');
const dataDir = EMBEDDED ? mkdtempSync(join(tmpdir(), 'airkey-row-shapes-')) : '';
let embedded: PGlite | undefined;
const opened = await openDatabase({
  databaseUrl: database?.url,
  dataDir,
  observeEmbedded: (client) => (embedded = client),
});
const now = Date.now();
const clock = { now: () => new Date(now), nowMs: () => now };
await new RequestLogPartitions({ db: opened.db, clock, days: 30 }).maintain();

const tenants = Array.from({ length: 10 }, () => randomUUID());
const keys = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), tenantId: tenants[i % 10]! }));
let at = now - 3_600_000;
const batches = Array.from({ length: BATCHES }, () =>
  Array.from({ length: 1_000 }, (): RequestRecord => {
    const key = keys[Math.floor(Math.random() * keys.length)]!;
    const refused = Math.random() < 0.03;
    return {
      ...recordFor(key.tenantId, (at += 1), key.id),
      address: `10.0.${Math.floor(Math.random() * 4)}.${Math.floor(Math.random() * 250)}`,
      ...(refused ? { status: 429, outcome: 'rate_limited' } : {}),
    };
  }),
);

// The statements go through one client: the backend's /proc entry on PostgreSQL, this process on PGlite.
const client = database ? new pg.Client({ connectionString: database.url }) : undefined;
await client?.connect();
const query = (text: string): Promise<unknown> => (client ? client.query(text) : embedded!.query(text));
const backend = client
  ? (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
  : undefined;
const backendCpuUs = () => {
  if (backend === undefined) return 0;
  const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

// As the log's writer sends its columns: binary arrays to PostgreSQL, literals to PGlite.
const WIRE = client ? 'binary' : 'text';
const db = client ? (drizzle(client) as unknown as Db) : opened.db;
const repository = new RequestLogRepository(db, WIRE);

const shapes = {
  'a row per entry (before drizzle/0018)': (records: RequestRecord[]) => insertRows(db, records, WIRE),
  'a block per tenant, minute and batch (as shipped)': (records: RequestRecord[]) =>
    repository.insert({ id: randomUUID(), rows: asRows(records) }),
};
console.log(`${BATCHES} batches of 1,000 entries a round; µs of CPU an entry`);
console.log(`shape | round | ${client ? 'backend' : '(in this process)'} | this process`);
for (let round = 1; round <= Number(options.rounds); round++) {
  for (const [shape, write] of Object.entries(shapes)) {
    await query('checkpoint');
    const [backendBefore, mine] = [backendCpuUs(), process.cpuUsage()];
    for (const records of batches) await write(records);
    const used = process.cpuUsage(mine);
    const perEntry = (us: number) => (us / (BATCHES * 1_000)).toFixed(1);
    console.log(
      `${shape} | ${round} | ${client ? perEntry(backendCpuUs() - backendBefore) : '—'} | ${perEntry(used.user + used.system)}`,
    );
  }
}
const sizes = (await opened.db.execute<{ blocks: string; entries: string }>(
  sql.raw(`select (select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) from pg_inherits
       where inhparent = 'request_log_blocks'::regclass) as blocks,
     (select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) from pg_inherits
       where inhparent = 'request_log'::regclass) as entries`),
)) as { rows: { blocks: string; entries: string }[] };
console.log(`on disk with indexes: rows per entry ${sizes.rows[0]!.entries}, blocks ${sizes.rows[0]!.blocks}`);
await client?.end();
await opened.close();
await database?.drop();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
