import { createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../../src/telemetry/export/otlp-trace-encoding.ts';
import { recordingTracer, REMOTE_CALLER } from '../support/sdk-spans.ts';

/** What the OTLP exporter would have sent for these spans: the SDK's own serializer. */
const sdkBytes = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
const ourBytes = (spans: ReadableSpan[]) => Buffer.from(encodeTraceRequest(spans));

// Any UTF-16 code unit, lone surrogates included, so strings need every UTF-8 length and U+FFFD.
const text = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength });
const ascii = (maxLength: number) => fc.string({ maxLength });
const hexId = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((id) => Buffer.from(id).toString('hex'));
const hrTime = fc.tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 999_999_999 }));
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(2 ** 32, 2 ** 53, -(2 ** 53), 2 ** 63 - 2 ** 10, -(2 ** 63), 2 ** 63, -1, -0),
  fc.maxSafeInteger(),
  fc.maxSafeNat().map((n) => -n),
);
const primitive = fc.oneof(text(40), fc.boolean(), number);
const attributeValue = fc.oneof(primitive, fc.array(fc.oneof(primitive, fc.constant(null)), { maxLength: 4 }));
const attributes = fc.dictionary(ascii(20), attributeValue, { maxKeys: 6 });
const longAttributes = fc.dictionary(text(200), fc.oneof(text(300), number), { maxKeys: 3 });
const traceState = fc.option(fc.constantFrom('vendor=opaque', 'a=1,b=2'), { nil: undefined });

const spanArbitrary = (resources: number, scopes: number) =>
  fc.record({
    name: text(150),
    kind: fc.option(fc.constantFrom(...Object.values(SpanKind).filter((v) => typeof v === 'number')), {
      nil: undefined,
    }),
    traceId: hexId(16),
    spanId: hexId(8),
    traceFlags: fc.integer({ min: 0, max: 255 }),
    traceState,
    parent: fc.option(fc.record({ spanId: hexId(8), isRemote: fc.option(fc.boolean(), { nil: undefined }) }), {
      nil: undefined,
    }),
    startTime: hrTime,
    endTime: hrTime,
    attributes: fc.oneof(attributes, longAttributes),
    droppedAttributesCount: fc.nat(),
    droppedEventsCount: fc.nat(),
    droppedLinksCount: fc.nat(),
    status: fc.record({
      code: fc.constantFrom(SpanStatusCode.UNSET, SpanStatusCode.OK, SpanStatusCode.ERROR),
      message: fc.option(text(60), { nil: undefined }),
    }),
    events: fc.array(
      fc.record({
        name: text(30),
        time: hrTime,
        attributes: fc.option(attributes, { nil: undefined }),
        droppedAttributesCount: fc.option(fc.nat(), { nil: undefined }),
      }),
      { maxLength: 2 },
    ),
    links: fc.array(
      fc.record({
        traceId: hexId(16),
        spanId: hexId(8),
        traceFlags: fc.integer({ min: 0, max: 255 }),
        traceState,
        isRemote: fc.option(fc.boolean(), { nil: undefined }),
        attributes: fc.option(attributes, { nil: undefined }),
        droppedAttributesCount: fc.option(fc.nat(), { nil: undefined }),
      }),
      { maxLength: 2 },
    ),
    resource: fc.nat({ max: resources - 1 }),
    scope: fc.nat({ max: scopes - 1 }),
  });

/** Spans as the export worker hands them to the exporter: plain data, resources and scopes shared by identity. */
const batchArbitrary = fc
  .record({
    resources: fc.array(fc.record({ attributes, schemaUrl: fc.option(ascii(30), { nil: undefined }) }), {
      minLength: 1,
      maxLength: 3,
    }),
    scopes: fc.array(
      fc.record({
        name: text(20),
        version: fc.option(ascii(8), { nil: undefined }),
        schemaUrl: fc.option(ascii(30), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .chain(({ resources, scopes }) => {
    const shared = resources.map(
      (resource) =>
        ({
          ...resource,
          merge: () => {
            throw new Error('not used by an exporter');
          },
          getRawAttributes: () => [],
        }) as unknown as ReadableSpan['resource'],
    );
    return fc.array(spanArbitrary(resources.length, scopes.length), { maxLength: 12 }).map((spans) =>
      spans.map((span): ReadableSpan => ({
        name: span.name,
        kind: span.kind as SpanKind,
        spanContext: () => ({
          traceId: span.traceId,
          spanId: span.spanId,
          traceFlags: span.traceFlags,
          ...(span.traceState ? { traceState: createTraceState(span.traceState) } : {}),
        }),
        parentSpanContext: span.parent && {
          traceId: span.traceId,
          spanId: span.parent.spanId,
          traceFlags: TraceFlags.SAMPLED,
          ...(span.parent.isRemote === undefined ? {} : { isRemote: span.parent.isRemote }),
        },
        startTime: span.startTime,
        endTime: span.endTime,
        duration: [0, 0],
        ended: true,
        status: span.status,
        attributes: span.attributes as ReadableSpan['attributes'],
        links: span.links.map(({ traceId, spanId, traceFlags, traceState: state, isRemote, ...link }) => ({
          ...link,
          attributes: link.attributes as ReadableSpan['attributes'] | undefined,
          context: {
            traceId,
            spanId,
            traceFlags,
            ...(state ? { traceState: createTraceState(state) } : {}),
            ...(isRemote === undefined ? {} : { isRemote }),
          },
        })),
        events: span.events as ReadableSpan['events'],
        droppedAttributesCount: span.droppedAttributesCount,
        droppedEventsCount: span.droppedEventsCount,
        droppedLinksCount: span.droppedLinksCount,
        resource: shared[span.resource]!,
        instrumentationScope: scopes[span.scope]!,
      })),
    );
  });

describe('the OTLP trace request the export worker sends', () => {
  it("is byte for byte what the SDK's protobuf serializer writes, whatever the spans hold", () => {
    fc.assert(
      fc.property(batchArbitrary, (spans) => {
        expect(ourBytes(spans).equals(sdkBytes(spans))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("is the SDK's bytes for the SDK's own spans, a request's worth and more than the first guess of its size", async () => {
    const { tracer, finished } = recordingTracer('airkey', '1.0.0');
    for (let i = 0; i < 600; i++) {
      const span = tracer.startSpan(
        'GET /api/v1/flights',
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': 'GET', 'url.path': `/api/v1/flights/${'x'.repeat(i)}` },
        },
        i % 2 === 0 ? REMOTE_CALLER : ROOT_CONTEXT,
      );
      span.setAttributes({ 'http.response.status_code': 200, 'airkey.key.id': 'a1b2c3d4-0000-4000-8000-123456789abc' });
      span.addEvent('retried', { attempt: i });
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'é'.repeat(i % 90) });
      span.end();
    }
    const spans = await finished();
    const bytes = ourBytes(spans);
    expect(bytes.length).toBeGreaterThan(spans.length * 512);
    expect(bytes.equals(sdkBytes(spans))).toBe(true);
  });

  it('is an empty request for no spans', () => {
    expect(ourBytes([]).length).toBe(0);
    expect(sdkBytes([]).length).toBe(0);
  });
});
