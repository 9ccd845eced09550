/**
 * What the request log's rows cost PostgreSQL, per entry, in two shapes (docs/request-log.md, Past
 * one PostgreSQL): a row per entry, as shipped (the repository's statement, four indexes), and a
 * row per tenant and batch holding the batch's entries as arrays, with two indexes (the tenant's
 * time and a GIN of the block's keys). Same entries, whoami-like: 10 tenants, 100 keys, 3 % refusals.
 * The CPU of the one backend (/proc), and of this process building and sending the statements.
 * Usage: node bench/row-shapes.ts [--batches=100] [--rounds=3] [--compression=lz4|pglz]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/handle.ts';
import { float4Array, instantArray, int2Array, textArray, uuidArray } from '../src/request-log/binary-arrays.ts';
import { RequestLogPartitions } from '../src/request-log/request-log-partitions.ts';
import { RequestLogRepository } from '../src/request-log/request-log-repository.ts';
import type { RequestRecord } from '../src/request-log/request-record.ts';
import { credentialCode, methodCode, outcomeCode } from '../src/request-log/stored-codes.ts';
import { recordFor } from '../test/support/request-log-kit.ts';
import { throwawayPostgres } from './postgres.ts';

const { values: options } = parseArgs({
  options: {
    batches: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    compression: { type: 'string', default: 'lz4' },
  },
});
const BATCHES = Number(options.batches);

const database = await throwawayPostgres(process.env.BENCH_DATABASE_URL);
if (!database) throw new Error('no PostgreSQL answers at 127.0.0.1:5432');
const now = Date.now();
const migrated = await openDatabase({ databaseUrl: database.url, dataDir: '' });
const clock = { now: () => new Date(now), nowMs: () => now };
await new RequestLogPartitions({ db: migrated.db, clock, days: 30 }).maintain();
await migrated.close();

const tenants = Array.from({ length: 10 }, () => randomUUID());
const keys = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), tenantId: tenants[i % 10]! }));
let at = now - 3_600_000;
const batches = Array.from({ length: BATCHES }, () =>
  Array.from({ length: 1_000 }, (): RequestRecord => {
    const key = keys[Math.floor(Math.random() * keys.length)]!;
    const refused = Math.random() < 0.03;
    return {
      ...recordFor(key.tenantId, (at += 0.02), key.id),
      address: `10.0.${Math.floor(Math.random() * 4)}.${Math.floor(Math.random() * 250)}`,
      ...(refused ? { status: 429, outcome: 'rate_limited' } : {}),
    };
  }),
);

const client = new pg.Client({ connectionString: database.url });
await client.connect();
const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
const backendCpuUs = () => {
  const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

const ARRAYS = `id uuid[], at timestamptz[], credential smallint[], key_id uuid[], key_name text[], key_hint text[],
  method smallint[], path text[], route text[], status smallint[], outcome smallint[], address inet[],
  user_agent text[], duration_ms real[], trace_id text[], mcp_method text[], mcp_tool text[]`;
await client.query(`create table request_log_blocks (tenant_id uuid not null, first_at timestamptz not null,
  last_at timestamptz not null, keys uuid[] not null, refusals smallint[] not null, ${ARRAYS})`);
await client.query('create index on request_log_blocks (tenant_id, last_at desc)');
await client.query('create index on request_log_blocks using gin (keys)');
for (const column of ARRAYS.split(',').map((part) => part.trim().split(' ')[0]!)) {
  await client.query(`alter table request_log_blocks alter column ${column} set compression ${options.compression}`);
}

const repository = new RequestLogRepository(drizzle(client) as unknown as Db, 'binary');
const BLOCK = `insert into request_log_blocks values ($1::uuid, $2::timestamptz, $3::timestamptz, $4::uuid[],
  $5::int2[], $6::uuid[], $7::timestamptz[], $8::int2[], $9::uuid[], $10::text[], $11::text[], $12::int2[],
  $13::text[], $14::text[], $15::int2[], $16::int2[], $17::text[]::inet[], $18::text[], $19::float4[],
  $20::text[], $21::text[], $22::text[])`;

async function blocks(records: RequestRecord[]): Promise<void> {
  const byTenant = new Map<string, RequestRecord[]>();
  for (const record of records) {
    const rows = byTenant.get(record.tenantId);
    if (rows) rows.push(record);
    else byTenant.set(record.tenantId, [record]);
  }
  await client.query('begin');
  for (const [tenantId, rows] of byTenant) {
    const of = <T>(field: (record: RequestRecord) => T): T[] => rows.map(field);
    const refusals = [...new Set(of((r) => outcomeCode(r.outcome)))].filter((code) => code !== 0);
    await client.query({
      name: 'block',
      text: BLOCK,
      values: [
        tenantId,
        new Date(rows[0]!.atMs),
        new Date(rows.at(-1)!.atMs),
        uuidArray([...new Set(of((r) => r.keyId))]),
        int2Array(refusals),
        uuidArray(of((r) => r.id)),
        instantArray(of((r) => r.atMs)),
        int2Array(of((r) => credentialCode(r.credential))),
        uuidArray(of((r) => r.keyId)),
        textArray(of((r) => r.keyName)),
        textArray(of((r) => r.keyHint)),
        int2Array(of((r) => methodCode(r.method))),
        textArray(of((r) => r.path)),
        textArray(of((r) => r.route)),
        int2Array(of((r) => r.status)),
        int2Array(of((r) => outcomeCode(r.outcome))),
        textArray(of((r) => r.address)),
        textArray(of((r) => r.userAgent)),
        float4Array(of((r) => r.durationMs)),
        textArray(of((r) => r.traceId)),
        textArray(of((r) => r.mcpMethod)),
        textArray(of((r) => r.mcpTool)),
      ],
    });
  }
  await client.query('commit');
}

const shapes = {
  'a row per entry (as shipped)': (records: RequestRecord[]) => repository.insert({ id: randomUUID(), records }),
  'a row per tenant and batch': blocks,
};
console.log(`${BATCHES} batches of 1,000 entries a round; µs of CPU an entry`);
console.log('shape | round | backend | this process');
for (let round = 1; round <= Number(options.rounds); round++) {
  for (const [shape, write] of Object.entries(shapes)) {
    await client.query('checkpoint');
    const [backendBefore, mine] = [backendCpuUs(), process.cpuUsage()];
    for (const records of batches) await write(records);
    const used = process.cpuUsage(mine);
    const perEntry = (us: number) => (us / (BATCHES * 1_000)).toFixed(1);
    console.log(
      `${shape} | ${round} | ${perEntry(backendCpuUs() - backendBefore)} | ${perEntry(used.user + used.system)}`,
    );
  }
}
const { rows } = await client.query<{ blocks: string; entries: string }>(
  `select pg_size_pretty(pg_total_relation_size('request_log_blocks')) as blocks,
     (select pg_size_pretty(sum(pg_total_relation_size(inhrelid))) from pg_inherits
       where inhparent = 'request_log'::regclass) as entries`,
);
console.log(`on disk with indexes: rows per entry ${rows[0]!.entries}, blocks ${rows[0]!.blocks}`);
await client.end();
await database.drop();
