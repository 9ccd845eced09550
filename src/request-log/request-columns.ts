import type { RequestFields } from './request-record.ts';
import { credentialCode, outcomeCode } from './stored-codes.ts';

/** The string fields of a record, each kept as an index into the chunk's string table (-1 for null). */
const TEXT_FIELDS = [
  'id',
  'tenantId',
  'keyId',
  'keyName',
  'keyHint',
  'method',
  'path',
  'route',
  'address',
  'userAgent',
  'traceId',
  'mcpMethod',
  'mcpTool',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
const TEXT_AT = Object.fromEntries(TEXT_FIELDS.map((field, i) => [field, i])) as Record<TextField, number>;
const TEXTS = TEXT_FIELDS.length;

/**
 * Records as columns, handed to the writer whole: numbers in typed arrays, strings as indexes into
 * one table where each distinct string (a tenant, a key, a route, an address, a user agent) is
 * held once. Plain data that a worker thread receives without a copy of its arrays.
 */
export type RequestChunk = {
  size: number;
  atMs: Float64Array;
  durationMs: Float64Array;
  status: Uint16Array;
  /** The codes the log stores (stored-codes.ts). */
  outcome: Uint8Array;
  credential: Uint8Array;
  /** `size * TEXTS` indexes into `strings`, a record's fields side by side; -1 is null. */
  text: Int32Array;
  strings: string[];
};

/**
 * The request thread's side of the log: `append` writes a record's fields into preallocated
 * columns. Nothing per request outlives the call but the distinct strings, which were already
 * alive; no entry object, no id, no promise is kept for the garbage collector to trace.
 */
export class RequestColumns {
  private chunk: RequestChunk;
  private index = new Map<string, number>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.chunk = emptyChunk(capacity);
  }

  get size(): number {
    return this.chunk.size;
  }

  get full(): boolean {
    return this.chunk.size >= this.capacity;
  }

  /** One record; the caller checks `full` first. */
  append(record: RequestFields): void {
    const chunk = this.chunk;
    const row = chunk.size++;
    chunk.atMs[row] = record.atMs;
    chunk.durationMs[row] = record.durationMs;
    chunk.status[row] = record.status;
    chunk.outcome[row] = outcomeCode(record.outcome);
    chunk.credential[row] = credentialCode(record.credential);
    const at = row * TEXTS;
    const text = chunk.text;
    text[at] = this.intern(record.id);
    text[at + 1] = this.intern(record.tenantId);
    text[at + 2] = this.intern(record.keyId);
    text[at + 3] = this.intern(record.keyName);
    text[at + 4] = this.intern(record.keyHint);
    text[at + 5] = this.intern(record.method);
    text[at + 6] = this.intern(record.path);
    text[at + 7] = this.intern(record.route);
    text[at + 8] = this.intern(record.address);
    text[at + 9] = this.intern(record.userAgent);
    text[at + 10] = this.intern(record.traceId);
    text[at + 11] = this.intern(record.mcpMethod);
    text[at + 12] = this.intern(record.mcpTool);
  }

  /** The records held, as one chunk; a fresh one takes their place. */
  take(): RequestChunk {
    const taken = this.chunk;
    this.chunk = emptyChunk(this.capacity);
    this.index = new Map();
    return taken;
  }

  private intern(value: string | null | undefined): number {
    if (value === null || value === undefined) return -1;
    let at = this.index.get(value);
    if (at === undefined) {
      at = this.chunk.strings.push(value) - 1;
      this.index.set(value, at);
    }
    return at;
  }
}

function emptyChunk(capacity: number): RequestChunk {
  return {
    size: 0,
    atMs: new Float64Array(capacity),
    durationMs: new Float64Array(capacity),
    status: new Uint16Array(capacity),
    outcome: new Uint8Array(capacity),
    credential: new Uint8Array(capacity),
    text: new Int32Array(capacity * TEXTS),
    strings: [],
  };
}

/** The typed arrays of a chunk, to hand over to a worker without copying them. */
export function transferablesOf(chunk: RequestChunk): ArrayBuffer[] {
  return [chunk.atMs, chunk.durationMs, chunk.status, chunk.outcome, chunk.credential, chunk.text].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

/** Rows `start` to `end` of a chunk: what the writer sends as one batch, a block per tenant and minute. */
export type RequestRows = { chunk: RequestChunk; start: number; end: number };

/** Records given whole (a test's, the move of earlier entries) as rows, their ids kept. */
export function asRows(records: readonly RequestFields[]): RequestRows {
  const columns = new RequestColumns(Math.max(1, records.length));
  for (const record of records) columns.append(record);
  return { chunk: columns.take(), start: 0, end: records.length };
}

/** A row's text field, `null` where the record had none. */
export function textAt(chunk: RequestChunk, row: number, field: TextField): string | null {
  const at = chunk.text[row * TEXTS + TEXT_AT[field]]!;
  return at < 0 ? null : chunk.strings[at]!;
}

/** One text field of the given rows, in their order. */
export function textColumn(chunk: RequestChunk, rows: readonly number[], field: TextField): (string | null)[] {
  const { text, strings } = chunk;
  const offset = TEXT_AT[field];
  const values = new Array<string | null>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const at = text[rows[i]! * TEXTS + offset]!;
    values[i] = at < 0 ? null : strings[at]!;
  }
  return values;
}

/** One numeric column of the given rows: rows side by side (a tenant's minute, as a rule) are a view, not a copy. */
export function numberColumn(
  column: Float64Array | Uint16Array | Uint8Array,
  rows: readonly number[],
): ArrayLike<number> {
  const first = rows[0] ?? 0;
  if (rows.length === 0 || rows[rows.length - 1]! - first === rows.length - 1)
    return column.subarray(first, first + rows.length);
  return Float64Array.from(rows, (row) => column[row]!);
}
