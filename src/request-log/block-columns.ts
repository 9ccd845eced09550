import { randomUUID } from 'node:crypto';
import { arrayLiteral, textArrayLiteral } from '../db/array-literal.ts';
import { float4Array, instantArray, int2Array, int8Array, textArray, uuidArray } from './binary-arrays.ts';
import { networkOf } from './networks.ts';
import type { RequestRecord } from './request-record.ts';
import { credentialCode, methodCode, outcomeCode } from './stored-codes.ts';

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
  instants: (values: number[]) => string | Buffer;
  int2s: (values: number[]) => string | Buffer;
  int8s: (values: number[]) => string | Buffer;
  float4s: (values: number[]) => string | Buffer;
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
    instants: arrayLiteral,
    int2s: arrayLiteral,
    int8s: arrayLiteral,
    float4s: arrayLiteral,
    texts: textArrayLiteral,
  },
};

/**
 * A batch as blocks: one per tenant and minute (so retention's days and a page's ranges hold), in
 * the order their tenants first appear. `binary` for PostgreSQL through `pg`, `text` for PGlite.
 */
export function blocksOf(records: readonly RequestRecord[], wire: 'binary' | 'text'): BlockParameters[] {
  // By tenant, then minute: two lookups and no key built per record.
  const groups = new Map<string, Map<number, RequestRecord[]>>();
  for (const record of records) {
    const minute = Math.floor(record.atMs / BLOCK_SPAN_MS);
    let minutes = groups.get(record.tenantId);
    if (minutes === undefined) groups.set(record.tenantId, (minutes = new Map<number, RequestRecord[]>()));
    const group = minutes.get(minute);
    if (group) group.push(record);
    else minutes.set(minute, [record]);
  }
  const encode = ENCODINGS[wire];
  return [...groups.values()].flatMap((minutes) => [...minutes.values()].map((group) => blockOf(group, encode)));
}

function blockOf(records: RequestRecord[], encode: Encoding): BlockParameters {
  let [first, last] = [Infinity, -Infinity];
  const [keys, statuses, outcomes, addresses] = [
    new Set<string>(),
    new Set<number>(),
    new Set<number>(),
    new Set<string>(),
  ];
  for (const record of records) {
    first = Math.min(first, record.atMs);
    last = Math.max(last, record.atMs);
    keys.add(record.keyId);
    statuses.add(record.status);
    outcomes.add(outcomeCode(record.outcome));
    if (record.address !== null) addresses.add(record.address);
  }
  const networks = new Set<number>();
  for (const address of addresses) {
    const network = networkOf(address);
    if (network !== undefined) networks.add(network);
  }
  return {
    block: randomUUID(),
    tenantId: records[0]!.tenantId,
    // Whole milliseconds around the entries, which the database keeps to the microsecond.
    firstAt: new Date(Math.floor(first)).toISOString(),
    lastAt: new Date(Math.ceil(last)).toISOString(),
    entries: records.length,
    keys: encode.uuids([...keys]),
    statuses: encode.int2s([...statuses]),
    outcomes: encode.int2s([...outcomes]),
    networks: encode.int8s([...networks]),
    columns: entryColumns(records, encode),
  };
}

/** Entries' columns as one array each (the rows an earlier version wrote take them too: bench/row-shapes.ts). */
export const entryColumnsOf = (records: readonly RequestRecord[], wire: 'binary' | 'text'): EntryColumns =>
  entryColumns(records, ENCODINGS[wire]);

/** Encodes tenants' ids as a column (the rows of an earlier version, which held one per entry). */
export const uuidColumn = (values: string[], wire: 'binary' | 'text'): string | Buffer => ENCODINGS[wire].uuids(values);

function entryColumns(records: readonly RequestRecord[], encode: Encoding): EntryColumns {
  const { uuids, int2s, texts } = encode;
  const of = <T>(field: (record: RequestRecord) => T): T[] => records.map(field);
  return {
    id: uuids(of((r) => r.id)),
    at: encode.instants(of((r) => r.atMs)),
    credential: int2s(of((r) => credentialCode(r.credential))),
    keyId: uuids(of((r) => r.keyId)),
    keyName: texts(of((r) => r.keyName)),
    keyHint: texts(of((r) => r.keyHint)),
    method: int2s(of((r) => methodCode(r.method))),
    path: texts(of((r) => r.path)),
    route: texts(of((r) => r.route)),
    status: int2s(of((r) => r.status)),
    outcome: int2s(of((r) => outcomeCode(r.outcome))),
    address: texts(of((r) => r.address)),
    userAgent: texts(of((r) => r.userAgent)),
    durationMs: encode.float4s(of((r) => r.durationMs)),
    traceId: texts(of((r) => r.traceId)),
    mcpMethod: texts(of((r) => r.mcpMethod)),
    mcpTool: texts(of((r) => r.mcpTool)),
  };
}
