import { randomFillSync } from 'node:crypto';

/**
 * One-dimensional PostgreSQL arrays in the binary format (`array_recv`), each a `Buffer` that the
 * `pg` driver sends as a binary parameter. PostgreSQL then copies each element where it would
 * parse the text of an array literal: a uuid is 16 bytes, an instant 8, no digits to read
 * (bench/RESULTS.md: about half of what the statement cost the database before any index).
 * The layout: dimensions (1), whether any element is null, the element type, the length, the
 * lower bound (1); then each element as its length (-1 for null) and its bytes.
 */

const TYPE = { int2: 21, int8: 20, text: 25, float4: 700, timestamptz: 1184, uuid: 2950 } as const;
const HEADER = 20;
/** Milliseconds from 1970 to 2000, PostgreSQL's epoch for `timestamptz` (which counts microseconds). */
const PG_EPOCH_MS = 946_684_800_000;

function header(buffer: Buffer, type: number, length: number, hasNull: boolean): void {
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(hasNull ? 1 : 0, 4);
  buffer.writeInt32BE(type, 8);
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16);
}

/** Elements of one fixed width, none null. */
function fixed<T>(
  type: number,
  width: number,
  values: ArrayLike<T>,
  put: (buffer: Buffer, at: number, value: T) => void,
) {
  const buffer = Buffer.allocUnsafe(HEADER + values.length * (4 + width));
  header(buffer, type, values.length, false);
  let at = HEADER;
  for (let i = 0; i < values.length; i++) {
    buffer.writeInt32BE(width, at);
    put(buffer, at + 4, values[i]!);
    at += 4 + width;
  }
  return buffer;
}

/** Each hex digit's value by character code. */
const HEX = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}
/** Where each byte's two hex digits start in a uuid's text (groups of 8, 4, 4, 4 and 12 digits). */
const UUID_DIGITS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * Canonical uuids (as `randomUUID` and PostgreSQL write them), read digit by digit here: a
 * `Buffer.write(…, 'hex')` per uuid cost twenty times as much. `null` is a new random (version 4)
 * uuid, its bytes drawn for the whole array at once: a `randomUUID()` per entry, then read back,
 * was a quarter of the writer's work (bench/RESULTS.md).
 */
export function uuidArray(values: readonly (string | null)[]): Buffer {
  const buffer = Buffer.allocUnsafe(HEADER + values.length * 20);
  if (values.includes(null)) randomFillSync(buffer);
  header(buffer, TYPE.uuid, values.length, false);
  let at = HEADER;
  // A column of one key's entries repeats its uuid: the bytes before are copied rather than read again.
  let previous: string | null = null;
  for (const value of values) {
    buffer.writeInt32BE(16, at);
    at += 4;
    if (value === null) {
      buffer[at + 6] = (buffer[at + 6]! & 0x0f) | 0x40;
      buffer[at + 8] = (buffer[at + 8]! & 0x3f) | 0x80;
    } else if (value === previous) {
      for (let i = 0; i < 16; i++) buffer[at + i] = buffer[at - 20 + i]!;
    } else {
      for (let i = 0; i < 16; i++) {
        const digit = UUID_DIGITS[i]!;
        buffer[at + i] = (HEX[value.charCodeAt(digit)]! << 4) | HEX[value.charCodeAt(digit + 1)]!;
      }
    }
    previous = value;
    at += 16;
  }
  return buffer;
}

/** Instants in epoch milliseconds, as `timestamptz` (microseconds since 2000). */
export const instantArray = (values: ArrayLike<number>): Buffer =>
  fixed(TYPE.timestamptz, 8, values, (buffer, at, ms) => {
    const micros = (ms - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / 2 ** 32);
    buffer.writeInt32BE(high, at);
    buffer.writeUInt32BE(micros - high * 2 ** 32, at + 4);
  });

export const int2Array = (values: ArrayLike<number>): Buffer =>
  fixed(TYPE.int2, 2, values, (buffer, at, value) => buffer.writeInt16BE(value, at));

/** Integers up to 2^53, as `bigint`. */
export const int8Array = (values: ArrayLike<number>): Buffer =>
  fixed(TYPE.int8, 8, values, (buffer, at, value) => buffer.writeBigInt64BE(BigInt(value), at));

export const float4Array = (values: ArrayLike<number>): Buffer =>
  fixed(TYPE.float4, 4, values, (buffer, at, value) => buffer.writeFloatBE(value, at));

/** Text as UTF-8, `null` as NULL. A string is written once, into room for its longest encoding. */
export function textArray(values: readonly (string | null)[]): Buffer {
  let room = HEADER;
  let hasNull = false;
  for (const value of values) {
    if (value === null) hasNull = true;
    room += 4 + (value === null ? 0 : value.length * 3);
  }
  const buffer = Buffer.allocUnsafe(room);
  header(buffer, TYPE.text, values.length, hasNull);
  let at = HEADER;
  for (const value of values) {
    if (value === null) {
      buffer.writeInt32BE(-1, at);
      at += 4;
      continue;
    }
    const written = putText(buffer, at + 4, value);
    buffer.writeInt32BE(written, at);
    at += 4 + written;
  }
  return buffer.subarray(0, at);
}

/** Most of a log's text is short ASCII (a path, an address, a route): copied here, without a call into C++ per string. */
function putText(buffer: Buffer, at: number, value: string): number {
  const length = value.length;
  if (length <= 64) {
    let i = 0;
    for (; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0x7f) break;
      buffer[at + i] = code;
    }
    if (i === length) return length;
  }
  return buffer.write(value, at, 'utf8');
}
