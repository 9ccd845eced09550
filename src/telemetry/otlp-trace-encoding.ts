import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FIXED64 = 1;
const FIXED32 = 5;
// SpanFlags: the context's trace flags, and whether (and that) its parent was remote.
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
const TWO_TO_32 = 0x1_0000_0000;
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;
const BYTES_PER_SPAN_GUESS = 512;

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/**
 * An OTLP ExportTraceServiceRequest in protobuf, for the export worker: the bytes the SDK's
 * ProtobufTraceSerializer writes for the same spans (test/unit/otlp-trace-encoding.test.ts holds
 * the two together), written in one pass by one writer. The SDK's serializer sizes the request in a
 * first pass and writes it in a second, each through an interface two classes implement, so none
 * of its many small calls is inlined: under callgrind it cost the worker about 50,000 instructions a
 * span, nearly half of all the worker does (bench/RESULTS.md).
 */
export function encodeTraceRequest(spans: readonly ReadableSpan[]): Uint8Array {
  const writer = new ProtobufWriter(spans.length * BYTES_PER_SPAN_GUESS);
  // Spans are grouped as the SDK groups them: by resource, then by scope, each by identity.
  const resources = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  for (const span of spans) {
    let scopes = resources.get(span.resource);
    if (scopes === undefined) resources.set(span.resource, (scopes = new Map<Scope, ReadableSpan[]>()));
    const scoped = scopes.get(span.instrumentationScope);
    if (scoped === undefined) scopes.set(span.instrumentationScope, [span]);
    else scoped.push(span);
  }
  for (const [resource, scopes] of resources) {
    writer.tag(1, LENGTH_DELIMITED);
    const resourceSpans = writer.begin();
    writer.tag(1, LENGTH_DELIMITED);
    const resourceStart = writer.begin();
    writeAttributes(writer, resource.attributes, 1);
    writer.tag(2, VARINT);
    writer.varint(0);
    writer.end(resourceStart);
    for (const scoped of scopes.values()) writeScopeSpans(writer, scoped[0]!.instrumentationScope, scoped);
    if (resource.schemaUrl) {
      writer.tag(3, LENGTH_DELIMITED);
      writer.string(resource.schemaUrl);
    }
    writer.end(resourceSpans);
  }
  return writer.finish();
}

function writeScopeSpans(writer: ProtobufWriter, scope: Scope, spans: ReadableSpan[]): void {
  writer.tag(2, LENGTH_DELIMITED);
  const scopeSpans = writer.begin();
  writer.tag(1, LENGTH_DELIMITED);
  const scopeStart = writer.begin();
  writer.tag(1, LENGTH_DELIMITED);
  writer.string(scope.name);
  if (scope.version) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(scope.version);
  }
  if (scope.attributes) writeAttributes(writer, scope.attributes, 3);
  if (scope.droppedAttributesCount) {
    writer.tag(4, VARINT);
    writer.varint(scope.droppedAttributesCount);
  }
  writer.end(scopeStart);
  for (const span of spans) writeSpan(writer, span);
  if (scope.schemaUrl) {
    writer.tag(3, LENGTH_DELIMITED);
    writer.string(scope.schemaUrl);
  }
  writer.end(scopeSpans);
}

function writeSpan(writer: ProtobufWriter, span: ReadableSpan): void {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  writer.tag(2, LENGTH_DELIMITED);
  const start = writer.begin();
  writeContext(writer, context);
  if (parent?.spanId) {
    writer.tag(4, LENGTH_DELIMITED);
    writer.hex(parent.spanId);
  }
  writer.tag(5, LENGTH_DELIMITED);
  writer.string(span.name);
  if (span.kind != null) {
    // OTLP counts kinds from SPAN_KIND_UNSPECIFIED = 0; the API from INTERNAL = 0.
    writer.tag(6, VARINT);
    writer.varint(span.kind + 1);
  }
  writer.tag(7, FIXED64);
  writer.time(span.startTime);
  writer.tag(8, FIXED64);
  writer.time(span.endTime);
  if (span.attributes) writeAttributes(writer, span.attributes, 9);
  writer.tag(10, VARINT);
  writer.varint(span.droppedAttributesCount);
  for (const event of span.events) writeEvent(writer, event);
  writer.tag(12, VARINT);
  writer.varint(span.droppedEventsCount);
  for (const link of span.links) writeLink(writer, link);
  writer.tag(14, VARINT);
  writer.varint(span.droppedLinksCount);
  writer.tag(15, LENGTH_DELIMITED);
  const status = writer.begin();
  if (span.status.message) {
    writer.tag(2, LENGTH_DELIMITED);
    writer.string(span.status.message);
  }
  writer.tag(3, VARINT);
  writer.varint(span.status.code);
  writer.end(status);
  writer.tag(16, FIXED32);
  writer.fixed32(spanFlags(context.traceFlags, parent?.isRemote));
  writer.end(start);
}

function writeEvent(writer: ProtobufWriter, event: TimedEvent): void {
  writer.tag(11, LENGTH_DELIMITED);
  const start = writer.begin();
  writer.tag(1, FIXED64);
  writer.time(event.time);
  writer.tag(2, LENGTH_DELIMITED);
  writer.string(event.name);
  if (event.attributes) writeAttributes(writer, event.attributes, 3);
  writer.tag(4, VARINT);
  writer.varint(event.droppedAttributesCount || 0);
  writer.end(start);
}

function writeLink(writer: ProtobufWriter, link: Link): void {
  const context = link.context;
  writer.tag(13, LENGTH_DELIMITED);
  const start = writer.begin();
  writeContext(writer, context);
  if (link.attributes) writeAttributes(writer, link.attributes, 4);
  writer.tag(5, VARINT);
  writer.varint(link.droppedAttributesCount || 0);
  writer.tag(6, FIXED32);
  writer.fixed32(spanFlags(context.traceFlags, context.isRemote));
  writer.end(start);
}

/** A span's or a link's trace id, span id and trace state: fields 1 to 3 of both. */
function writeContext(writer: ProtobufWriter, context: SpanContext): void {
  writer.tag(1, LENGTH_DELIMITED);
  writer.hex(context.traceId);
  writer.tag(2, LENGTH_DELIMITED);
  writer.hex(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    writer.tag(3, LENGTH_DELIMITED);
    writer.string(traceState);
  }
}

function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
}

/** Each attribute a KeyValue under `field`. */
function writeAttributes(writer: ProtobufWriter, attributes: Attributes, field: number): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    writer.tag(field, LENGTH_DELIMITED);
    writeKeyValue(writer, key, attributes[key]);
  }
}

function writeKeyValue(writer: ProtobufWriter, key: string, value: unknown): void {
  const start = writer.begin();
  writer.tag(1, LENGTH_DELIMITED);
  writer.string(key);
  writer.tag(2, LENGTH_DELIMITED);
  const valueStart = writer.begin();
  writeAnyValue(writer, value);
  writer.end(valueStart);
  writer.end(start);
}

/** An AnyValue's one field; a value of no OTLP type (null in an array) is an empty AnyValue. */
function writeAnyValue(writer: ProtobufWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      writer.tag(1, LENGTH_DELIMITED);
      writer.string(value);
      return;
    case 'boolean':
      writer.tag(2, VARINT);
      writer.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        writer.tag(3, VARINT);
        writer.varint(value);
      } else {
        writer.tag(4, FIXED64);
        writer.double(value);
      }
      return;
    case 'object':
      if (value === null) return;
      if (value instanceof Uint8Array) {
        writer.tag(7, LENGTH_DELIMITED);
        writer.bytes(value);
      } else if (Array.isArray(value)) {
        writer.tag(5, LENGTH_DELIMITED);
        const array = writer.begin();
        for (const item of value) {
          writer.tag(1, LENGTH_DELIMITED);
          const itemStart = writer.begin();
          writeAnyValue(writer, item);
          writer.end(itemStart);
        }
        writer.end(array);
      } else {
        writer.tag(6, LENGTH_DELIMITED);
        const list = writer.begin();
        for (const key in value) {
          if (!Object.hasOwn(value, key)) continue;
          writer.tag(1, LENGTH_DELIMITED);
          writeKeyValue(writer, key, (value as Record<string, unknown>)[key]);
        }
        writer.end(list);
      }
  }
}

/**
 * Protobuf's wire format into one growing buffer. A length-delimited field gets one byte for its
 * length up front, and its content moves along in the rare case it needs more.
 */
class ProtobufWriter {
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
