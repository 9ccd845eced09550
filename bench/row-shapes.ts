/**
 * What the request log's rows cost PostgreSQL, per entry, in two shapes (docs/request-log.md, Past
 * one PostgreSQL): a row per entry, as shipped (the repository's statement, four indexes), and a
 * row per tenant and batch holding the batch's entries as arrays, with two indexes (the tenant's
 * time and a GIN of the block's keys). Same entries, whoami-like: 10 tenants, 100 keys, 3 % refusals.
 * On PostgreSQL, the CPU of the one backend (/proc) and of this process building and sending the
 * statements; on PGlite (`--engine=pglite`, its text parameters, as the log's thread sends them),
 * this process's, which runs the database too.
 * Usage: node bench/row-shapes.ts [--engine=postgres|pglite] [--batches=100] [--rounds=3] [--compression=lz4|pglz]
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
import { arrayLiteral } from '../src/db/array-literal.ts';
import { openDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/handle.ts';
import { int2Array, uuidArray } from '../src/request-log/binary-arrays.ts';
import { RequestLogPartitions } from '../src/request-log/request-log-partitions.ts';
import { batchColumns, RequestLogRepository } from '../src/request-log/request-log-repository.ts';
import type { RequestRecord } from '../src/request-log/request-record.ts';
import { outcomeCode } from '../src/request-log/stored-codes.ts';
import { recordFor } from '../test/support/request-log-kit.ts';
import { throwawayPostgres } from './postgres.ts';

const { values: options } = parseArgs({
  options: {
    batches: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    compression: { type: 'string', default: 'lz4' },
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
const query = (text: string, values: unknown[] = []): Promise<unknown> =>
  client
    ? client.query({ name: values.length > 0 ? 'block' : undefined, text, values })
    : embedded!.query(text, values);
const backend = client
  ? (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
  : undefined;
const backendCpuUs = () => {
  if (backend === undefined) return 0;
  const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

const ARRAYS = `id uuid[], at timestamptz[], credential smallint[], key_id uuid[], key_name text[], key_hint text[],
  method smallint[], path text[], route text[], status smallint[], outcome smallint[], address inet[],
  user_agent text[], duration_ms real[], trace_id text[], mcp_method text[], mcp_tool text[]`;
await query(`create table request_log_blocks (tenant_id uuid not null, first_at timestamptz not null,
  last_at timestamptz not null, keys uuid[] not null, refusals smallint[] not null, ${ARRAYS})`);
await query('create index on request_log_blocks (tenant_id, last_at desc)');
await query('create index on request_log_blocks using gin (keys)');
for (const column of ARRAYS.split(',').map((part) => part.trim().split(' ')[0]!)) {
  if (!EMBEDDED)
    await query(`alter table request_log_blocks alter column ${column} set compression ${options.compression}`);
}

// As the log's writer sends its columns: binary arrays to PostgreSQL, literals to PGlite.
const WIRE = client ? 'binary' : 'text';
const repository = new RequestLogRepository(client ? (drizzle(client) as unknown as Db) : opened.db, WIRE);
const AT = client
  ? '$7::timestamptz[]'
  : "array(select timestamptz 'epoch' + ms * interval '1 millisecond' from unnest($7::float8[]) ms)";
const BLOCK = `insert into request_log_blocks values ($1::uuid, $2::timestamptz, $3::timestamptz, $4::uuid[],
  $5::int2[], $6::uuid[], ${AT}, $8::int2[], $9::uuid[], $10::text[], $11::text[], $12::int2[],
  $13::text[], $14::text[], $15::int2[], $16::int2[], $17::text[]::inet[], $18::text[], $19::float4[],
  $20::text[], $21::text[], $22::text[])`;

async function blocks(records: RequestRecord[]): Promise<void> {
  const byTenant = new Map<string, RequestRecord[]>();
  for (const record of records) {
    const rows = byTenant.get(record.tenantId);
    if (rows) rows.push(record);
    else byTenant.set(record.tenantId, [record]);
  }
  // The summaries a block's rare filters would read, then the entries' columns as the writer sends them.
  const uuids = client ? uuidArray : arrayLiteral;
  const int2s = client ? int2Array : arrayLiteral;
  await query('begin');
  for (const [tenantId, rows] of byTenant) {
    const refusals = new Set(rows.map((r) => outcomeCode(r.outcome)));
    refusals.delete(0);
    const c = batchColumns(rows, WIRE);
    await query(BLOCK, [
      tenantId,
      new Date(rows[0]!.atMs).toISOString(),
      new Date(rows.at(-1)!.atMs).toISOString(),
      uuids([...new Set(rows.map((r) => r.keyId))]),
      int2s([...refusals]),
      ...[c.id, c.at, c.credential, c.keyId, c.keyName, c.keyHint, c.method, c.path, c.route, c.status],
      ...[c.outcome, c.address, c.userAgent, c.durationMs, c.traceId, c.mcpMethod, c.mcpTool],
    ]);
  }
  await query('commit');
}

const shapes = {
  'a row per entry (as shipped)': (records: RequestRecord[]) => repository.insert({ id: randomUUID(), records }),
  'a row per tenant and batch': blocks,
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
  sql.raw(`select pg_size_pretty(pg_total_relation_size('request_log_blocks')) as blocks,
     (select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) from pg_inherits
       where inhparent = 'request_log'::regclass) as entries`),
)) as { rows: { blocks: string; entries: string }[] };
console.log(`on disk with indexes: rows per entry ${sizes.rows[0]!.entries}, blocks ${sizes.rows[0]!.blocks}`);
await client?.end();
await opened.close();
await database?.drop();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
