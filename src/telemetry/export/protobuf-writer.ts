import type { HrTime } from '@opentelemetry/api';

/** Protobuf's wire types, as a field's tag carries them. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

const TWO_TO_32 = 0x1_0000_0000;
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/**
 * Protobuf's wire format into one growing buffer. A length-delimited field gets one byte for its
 * length up front, and its content moves along in the rare case it needs more.
 */
export class ProtobufWriter {
  private buffer: Buffer;
  private pos = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafeSlow(Math.max(size, 64));
  }

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.pos);
  }

  tag(field: number, wireType: number): void {
    this.varint32((field << 3) | wireType);
  }

  /** Where a length-delimited field's content starts, its length byte reserved. */
  begin(): number {
    this.reserve(1);
    return ++this.pos;
  }

  end(contentStart: number): void {
    const length = this.pos - contentStart;
    if (length < 0x80) {
      this.buffer[contentStart - 1] = length;
      return;
    }
    const extra = varintSize(length) - 1;
    this.reserve(extra);
    this.buffer.copyWithin(contentStart + extra, contentStart, this.pos);
    this.pos += extra;
    let at = contentStart - 1;
    let rest = length;
    while (rest >= 0x80) {
      this.buffer[at++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.buffer[at] = rest;
  }

  /** An unsigned 32-bit value. */
  varint32(value: number): void {
    this.reserve(5);
    const buffer = this.buffer;
    let pos = this.pos;
    while (value >= 0x80) {
      buffer[pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buffer[pos++] = value;
    this.pos = pos;
  }

  /** An int64 (a negative one in ten bytes, two's complement), from an integer. */
  varint(value: number): void {
    if (value >= 0 && value < TWO_TO_32) return this.varint32(value >>> 0);
    const negative = value < 0;
    const magnitude = Math.abs(value);
    let low = magnitude >>> 0;
    let high = (magnitude / TWO_TO_32) >>> 0;
    if (negative) {
      low = (~low + 1) >>> 0;
      high = (~high + (low === 0 ? 1 : 0)) >>> 0;
    }
    this.reserve(10);
    const buffer = this.buffer;
    let pos = this.pos;
    while (high > 0 || low >= 0x80) {
      buffer[pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buffer[pos++] = low;
    this.pos = pos;
  }

  fixed32(value: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** Nanoseconds since the epoch, from [seconds, nanoseconds], exact beyond 2^53. */
  time([seconds, nanos]: HrTime): void {
    // seconds × 10^9 = (upper × 2^16 + lower) × 10^9, each product exact in a double.
    const upper = Math.floor(seconds / 0x1_0000);
    const lower = seconds - upper * 0x1_0000;
    const upperNanos = upper * 1e9;
    const rest = lower * 1e9 + nanos;
    const low = (upperNanos % 0x1_0000) * 0x1_0000 + (rest % TWO_TO_32);
    const high = Math.floor(upperNanos / 0x1_0000) + Math.floor(rest / TWO_TO_32) + Math.floor(low / TWO_TO_32);
    this.reserve(8);
    this.buffer.writeUInt32LE(low >>> 0, this.pos);
    this.buffer.writeUInt32LE(high >>> 0, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.reserve(8);
    this.buffer.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  bytes(bytes: Uint8Array): void {
    this.varint32(bytes.length);
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A trace or span id, as the bytes its hex spells. */
  hex(id: string): void {
    const length = id.length >>> 1;
    this.varint32(length);
    this.reserve(length);
    const buffer = this.buffer;
    let pos = this.pos;
    for (let i = 0; i < length * 2; i += 2)
      buffer[pos++] = (hexValue(id.charCodeAt(i)) << 4) | hexValue(id.charCodeAt(i + 1));
    this.pos = pos;
  }

  /** UTF-8, a lone surrogate as U+FFFD (as TextEncoder writes it); ASCII copied a char at a time. */
  string(text: string): void {
    const length = text.length;
    this.reserve(length * 3 + 1);
    const start = this.begin();
    const buffer = this.buffer;
    let pos = start;
    let i = 0;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      buffer[pos++] = code;
    }
    if (i < length) pos += buffer.write(text.slice(i), pos, 'utf8');
    this.pos = pos;
    this.end(start);
  }

  private reserve(size: number): void {
    if (this.pos + size <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.pos + size));
    this.buffer.copy(grown, 0, 0, this.pos);
    this.buffer = grown;
  }
}

function hexValue(code: number): number {
  const value = code < 128 ? HEX_VALUE[code]! : -1;
  // A character no hex digit: the SDK's decoder reads it as (code - 55); so does this.
  return value >= 0 ? value : code - 55;
}

function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value >>>= 7;
    size++;
  }
  return size;
}
