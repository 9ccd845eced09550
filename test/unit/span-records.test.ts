import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { SpanBatchReader, SpanBatchWriter } from '../../src/telemetry/export/span-records.ts';
import { recordingTracer, REMOTE_CALLER } from '../support/sdk-spans.ts';

/** Ended spans of the real SDK: a server span under a remote caller, and a child with an event, a link and a failure. */
async function sdkSpans(): Promise<ReadableSpan[]> {
  const { tracer, finished } = recordingTracer('airkey-test', '1.2.3');
  const server = tracer.startSpan(
    'GET /api/v1/flights',
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 } },
    REMOTE_CALLER,
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
  return finished();
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
    const received = new SpanBatchReader().read(structuredClone(writer.take()));
    expect(received.map(comparable)).toEqual(spans.map(comparable));
    expect(received[0]!.resource).toBe(received[1]!.resource);
  });

  it('starts a fresh batch once one is taken', async () => {
    const writer = new SpanBatchWriter();
    for (const span of await sdkSpans()) writer.add(span);
    writer.take();
    expect(writer.size).toBe(0);
    expect(new SpanBatchReader().read(writer.take())).toEqual([]);
  });

  it('carry a resource once, and name it in later batches', async () => {
    const writer = new SpanBatchWriter();
    const reader = new SpanBatchReader();
    const spans = await sdkSpans();
    writer.add(spans[0]!);
    const first = structuredClone(writer.take());
    writer.add(spans[1]!);
    const second = structuredClone(writer.take());
    expect([first.resources.length, second.resources.length]).toEqual([1, 0]);
    const [one] = reader.read(first);
    const [two] = reader.read(second);
    expect(two!.resource.attributes).toEqual(spans[1]!.resource.attributes);
    expect(two!.resource).toBe(one!.resource);
  });
});
