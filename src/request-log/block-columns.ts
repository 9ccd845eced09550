import { randomUUID } from 'node:crypto';
import { arrayLiteral, textArrayLiteral } from '../db/array-literal.ts';
import { float4Array, instantArray, int2Array, int8Array, textArray, uuidArray } from './binary-arrays.ts';
import { networkOf } from './networks.ts';
import {
  asRows,
  numberColumn,
  textAt,
  textColumn,
  type RequestChunk,
  type RequestRows,
  type TextField,
} from './request-columns.ts';
import type { RequestRecord } from './request-record.ts';
import { methodCode } from './stored-codes.ts';

/** A block's span at most (docs/request-log.md (The block)): a page's position is then a range of `last_at`. */
export const BLOCK_SPAN_MS = 60_000;

/** The entries' columns, one parameter each, in either wire form. */
export type EntryColumns = Record<
  | 'id'
  | 'at'
  | 'credential'
  | 'keyId'
  | 'keyName'
  | 'keyHint'
  | 'method'
  | 'path'
  | 'route'
  | 'status'
  | 'outcome'
  | 'address'
  | 'userAgent'
  | 'durationMs'
  | 'traceId'
  | 'mcpMethod'
  | 'mcpTool',
  string | Buffer
>;

/** A block as the writer sends it: its own fields, its summaries, then the entries' columns. */
export type BlockParameters = {
  block: string;
  tenantId: string;
  firstAt: string;
  lastAt: string;
  entries: number;
  keys: string | Buffer;
  statuses: string | Buffer;
  outcomes: string | Buffer;
  networks: string | Buffer;
  columns: EntryColumns;
};

type Encoding = {
  /** `null` is a new random uuid. */
  uuids: (values: (string | null)[]) => string | Buffer;
  instants: (values: ArrayLike<number>) => string | Buffer;
  int2s: (values: ArrayLike<number>) => string | Buffer;
  int8s: (values: ArrayLike<number>) => string | Buffer;
  float4s: (values: ArrayLike<number>) => string | Buffer;
  texts: (values: (string | null)[]) => string | Buffer;
};

const ENCODINGS: Record<'binary' | 'text', Encoding> = {
  binary: {
    uuids: uuidArray,
    instants: instantArray,
    int2s: int2Array,
    int8s: int8Array,
    float4s: float4Array,
    texts: textArray,
  },
  text: {
    uuids: (values) => arrayLiteral(values.map((value) => value ?? randomUUID())),
    instants: (values) => arrayLiteral(Array.from(values)),
    int2s: (values) => arrayLiteral(Array.from(values)),
    int8s: (values) => arrayLiteral(Array.from(values)),
    float4s: (values) => arrayLiteral(Array.from(values)),
    texts: textArrayLiteral,
  },
};

/**
 * A batch as blocks: one per tenant and minute (so retention's days and a page's ranges hold), in
 * the order their tenants first appear. `binary` for PostgreSQL through `pg`, `text` for PGlite.
 * Read straight from the chunk's columns: no object per entry is made for the collector to chase.
 */
export function blocksOf(rows: RequestRows, wire: 'binary' | 'text'): BlockParameters[] {
  const { chunk, start, end } = rows;
  // By tenant, then minute: two lookups and no key built per entry.
  const groups = new Map<string, Map<number, number[]>>();
  for (let row = start; row < end; row++) {
    const tenant = textAt(chunk, row, 'tenantId')!;
    const minute = Math.floor(chunk.atMs[row]! / BLOCK_SPAN_MS);
    let minutes = groups.get(tenant);
    if (minutes === undefined) groups.set(tenant, (minutes = new Map<number, number[]>()));
    const group = minutes.get(minute);
    if (group) group.push(row);
    else minutes.set(minute, [row]);
  }
  const encode = ENCODINGS[wire];
  return [...groups.values()].flatMap((minutes) => [...minutes.values()].map((group) => blockOf(chunk, group, encode)));
}

function blockOf(chunk: RequestChunk, group: number[], encode: Encoding): BlockParameters {
  let [first, last] = [Infinity, -Infinity];
  const [keys, statuses, outcomes, addresses] = [
    new Set<string>(),
    new Set<number>(),
    new Set<number>(),
    new Set<string>(),
  ];
  for (const row of group) {
    first = Math.min(first, chunk.atMs[row]!);
    last = Math.max(last, chunk.atMs[row]!);
    keys.add(textAt(chunk, row, 'keyId')!);
    statuses.add(chunk.status[row]!);
    outcomes.add(chunk.outcome[row]!);
    const address = textAt(chunk, row, 'address');
    if (address !== null) addresses.add(address);
  }
  const networks = new Set<number>();
  for (const address of addresses) {
    const network = networkOf(address);
    if (network !== undefined) networks.add(network);
  }
  return {
    block: randomUUID(),
    tenantId: textAt(chunk, group[0]!, 'tenantId')!,
    // Whole milliseconds around the entries, which the database keeps to the microsecond.
    firstAt: new Date(Math.floor(first)).toISOString(),
    lastAt: new Date(Math.ceil(last)).toISOString(),
    entries: group.length,
    keys: encode.uuids([...keys]),
    statuses: encode.int2s([...statuses]),
    outcomes: encode.int2s([...outcomes]),
    networks: encode.int8s([...networks]),
    columns: entryColumns(chunk, group, encode),
  };
}

/** Entries' columns as one array each (the rows an earlier version wrote take them too: bench/row-shapes.ts). */
export function entryColumnsOf(records: readonly RequestRecord[], wire: 'binary' | 'text'): EntryColumns {
  const { chunk } = asRows(records);
  return entryColumns(
    chunk,
    records.map((_, row) => row),
    ENCODINGS[wire],
  );
}

/** Encodes tenants' ids as a column (the rows of an earlier version, which held one per entry). */
export const uuidColumn = (values: string[], wire: 'binary' | 'text'): string | Buffer => ENCODINGS[wire].uuids(values);

function entryColumns(chunk: RequestChunk, group: number[], encode: Encoding): EntryColumns {
  const { uuids, int2s, texts } = encode;
  const text = (field: TextField) => textColumn(chunk, group, field);
  const number = (column: Float64Array | Uint16Array | Uint8Array) => numberColumn(column, group);
  return {
    id: uuids(text('id')),
    at: encode.instants(number(chunk.atMs)),
    credential: int2s(number(chunk.credential)),
    keyId: uuids(text('keyId')),
    keyName: texts(text('keyName')),
    keyHint: texts(text('keyHint')),
    method: int2s(text('method').map((method) => methodCode(method!))),
    path: texts(text('path')),
    route: texts(text('route')),
    status: int2s(number(chunk.status)),
    outcome: int2s(number(chunk.outcome)),
    address: texts(text('address')),
    userAgent: texts(text('userAgent')),
    durationMs: encode.float4s(number(chunk.durationMs)),
    traceId: texts(text('traceId')),
    mcpMethod: texts(text('mcpMethod')),
    mcpTool: texts(text('mcpTool')),
  };
}
