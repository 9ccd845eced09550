import { REQUEST_OUTCOMES, type RequestOutcome } from './request-log-schemas.ts';
import type { RequestFields, RequestRecord } from './request-record.ts';

const OUTCOME_CODE: ReadonlyMap<RequestOutcome, number> = new Map(REQUEST_OUTCOMES.map((outcome, i) => [outcome, i]));

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
type TextField = (typeof TEXT_FIELDS)[number];
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
  outcome: Uint8Array;
  /** 1 for an access token, 0 for a key. */
  oauth: Uint8Array;
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
    chunk.outcome[row] = OUTCOME_CODE.get(record.outcome) ?? 0;
    chunk.oauth[row] = record.credential === 'oauth' ? 1 : 0;
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
    oauth: new Uint8Array(capacity),
    text: new Int32Array(capacity * TEXTS),
    strings: [],
  };
}

/** The typed arrays of a chunk, to hand over to a worker without copying them. */
export function transferablesOf(chunk: RequestChunk): ArrayBuffer[] {
  return [chunk.atMs, chunk.durationMs, chunk.status, chunk.outcome, chunk.oauth, chunk.text].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

/** The writer's side: a chunk back into records; an id the hook gave none is drawn when the block is encoded. */
export function recordsOf(chunk: RequestChunk): RequestRecord[] {
  const records: RequestRecord[] = new Array<RequestRecord>(chunk.size);
  const { strings, text } = chunk;
  for (let row = 0; row < chunk.size; row++) {
    const at = row * TEXTS;
    const field = (i: number): string | null => (text[at + i]! < 0 ? null : strings[text[at + i]!]!);
    const required = (name: TextField): string => field(TEXT_FIELDS.indexOf(name)) ?? '';
    records[row] = {
      id: field(0),
      atMs: chunk.atMs[row]!,
      tenantId: required('tenantId'),
      credential: chunk.oauth[row] === 1 ? 'oauth' : 'key',
      keyId: required('keyId'),
      keyName: required('keyName'),
      keyHint: field(4),
      method: required('method'),
      path: required('path'),
      route: required('route'),
      status: chunk.status[row]!,
      outcome: REQUEST_OUTCOMES[chunk.outcome[row]!] ?? 'ok',
      address: field(8),
      userAgent: field(9),
      durationMs: chunk.durationMs[row]!,
      traceId: field(10),
      mcpMethod: field(11),
      mcpTool: field(12),
    };
  }
  return records;
}
