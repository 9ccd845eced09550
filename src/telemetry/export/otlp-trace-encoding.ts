import type { Attributes, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import { FIXED32, FIXED64, LENGTH_DELIMITED, ProtobufWriter, VARINT } from './protobuf-writer.ts';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

// SpanFlags: the context's trace flags, and whether (and that) its parent was remote.
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;
const BYTES_PER_SPAN_GUESS = 512;

/**
 * An OTLP ExportTraceServiceRequest in protobuf, for the export worker: the bytes the SDK's
 * ProtobufTraceSerializer writes for the same spans (test/unit/otlp-trace-encoding.test.ts holds
 * the two together), written in one pass by one writer. The SDK's serializer sizes the request in a
 * first pass and writes it in a second, each through an interface two classes implement, so none
 * of its many small calls is inlined. What this buys, measured (bench/otlp-encoding.ts), is in
 * docs/performance.md (Tracing).
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
