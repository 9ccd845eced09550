import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { readSpanBatch, SpanBatchWriter } from '../../src/telemetry/span-records.ts';

/** Ended spans of the real SDK: a server span under a remote caller, and a child with an event, a link and a failure. */
async function sdkSpans(): Promise<ReadableSpan[]> {
  const finished = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: finished })] });
  const tracer = provider.getTracer('airkey-test', '1.2.3');
  const caller = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    traceState: createTraceState('vendor=opaque'),
    isRemote: true,
  });
  const server = tracer.startSpan(
    'GET /api/v1/flights',
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 } },
    caller,
  );
  const child = tracer.startSpan(
    'airkey.key_check',
    {
      attributes: { 'airkey.tags': ['a', 'b'], 'airkey.retry': true },
      links: [{ context: server.spanContext(), attributes: { why: 'same request' } }],
    },
    trace.setSpan(context.active(), server),
  );
  child.addEvent('looked up', { 'airkey.found': false });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'not found' });
  child.end();
  server.end();
  await provider.forceFlush();
  return finished.getFinishedSpans();
}

const comparable = (span: ReadableSpan) => ({
  name: span.name,
  kind: span.kind,
  context: { ...span.spanContext(), traceState: span.spanContext().traceState?.serialize() },
  parent: span.parentSpanContext && {
    ...span.parentSpanContext,
    traceState: span.parentSpanContext.traceState?.serialize(),
  },
  startTime: span.startTime,
  endTime: span.endTime,
  duration: span.duration,
  status: span.status,
  attributes: span.attributes,
  events: span.events,
  links: span.links.map((link) => ({ ...link, context: { ...link.context, traceState: undefined } })),
  dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  resource: span.resource.attributes,
  scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version },
});

describe('spans handed to the export worker', () => {
  it('arrive through a structured clone as the SDK ended them', async () => {
    const spans = await sdkSpans();
    const writer = new SpanBatchWriter();
    for (const span of spans) writer.add(span);
    expect(writer.size).toBe(2);
    const received = readSpanBatch(structuredClone(writer.take()));
    expect(received.map(comparable)).toEqual(spans.map(comparable));
    expect(received[0]!.resource).toBe(received[1]!.resource);
  });

  it('starts a fresh batch once one is taken', async () => {
    const writer = new SpanBatchWriter();
    for (const span of await sdkSpans()) writer.add(span);
    writer.take();
    expect(writer.size).toBe(0);
    expect(readSpanBatch(writer.take())).toEqual([]);
  });
});
