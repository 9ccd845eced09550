import { createTraceState, type Attributes, type HrTime, type Link, type SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

/** A span context as plain data: what a worker can receive (a TraceState object cannot be cloned). */
type ContextRecord = [traceId: string, spanId: string, traceFlags: number, traceState?: string, isRemote?: boolean];

/**
 * A finished span as plain data, for the export worker: no methods, no class instances, so a
 * structured clone copies it as it is. Its resource and scope travel once per batch, by index.
 */
export type SpanRecord = {
  name: string;
  kind: ReadableSpan['kind'];
  context: ContextRecord;
  parent: ContextRecord | undefined;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: ReadableSpan['status'];
  attributes: Attributes;
  links: Array<{ context: ContextRecord; attributes?: Attributes; droppedAttributesCount?: number }>;
  events: ReadableSpan['events'];
  dropped: [attributes: number, events: number, links: number];
  resource: number;
  scope: number;
};

export type BatchRecord = {
  spans: SpanRecord[];
  resources: Array<{ attributes: Attributes; schemaUrl?: string }>;
  scopes: Scope[];
};

const contextRecord = (context: SpanContext): ContextRecord => [
  context.traceId,
  context.spanId,
  context.traceFlags,
  context.traceState?.serialize(),
  context.isRemote,
];

const spanContext = ([traceId, spanId, traceFlags, traceState, isRemote]: ContextRecord): SpanContext => ({
  traceId,
  spanId,
  traceFlags,
  ...(traceState === undefined ? {} : { traceState: createTraceState(traceState) }),
  ...(isRemote === undefined ? {} : { isRemote }),
});

/** On the request thread: a batch of the SDK's finished spans as plain data, copying no attribute. */
export function batchRecord(spans: readonly ReadableSpan[]): BatchRecord {
  const resources: Resource[] = [];
  const scopes: Scope[] = [];
  const indexOf = <T>(list: T[], item: T) => {
    const index = list.indexOf(item);
    return index === -1 ? list.push(item) - 1 : index;
  };
  const records = spans.map((span): SpanRecord => ({
    name: span.name,
    kind: span.kind,
    context: contextRecord(span.spanContext()),
    parent: span.parentSpanContext && contextRecord(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: contextRecord(link.context) })),
    events: span.events,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
    resource: indexOf(resources, span.resource),
    scope: indexOf(scopes, span.instrumentationScope),
  }));
  return {
    spans: records,
    resources: resources.map((resource) => ({ attributes: resource.attributes, schemaUrl: resource.schemaUrl })),
    scopes: scopes.map(({ name, version, schemaUrl }) => ({ name, version, schemaUrl })),
  };
}

/** In the export worker: the batch as the spans the OTLP exporter takes. */
export function readableSpans(batch: BatchRecord): ReadableSpan[] {
  // One object per resource, shared by its spans: the OTLP encoding groups spans by resource identity.
  const resources = batch.resources.map((resource) => new ReceivedResource(resource.attributes, resource.schemaUrl));
  return batch.spans.map((record) => {
    const context = spanContext(record.context);
    return {
      name: record.name,
      kind: record.kind,
      spanContext: () => context,
      parentSpanContext: record.parent && spanContext(record.parent),
      startTime: record.startTime,
      endTime: record.endTime,
      duration: record.duration,
      ended: true,
      status: record.status,
      attributes: record.attributes,
      links: record.links.map((link): Link => ({ ...link, context: spanContext(link.context) })),
      events: record.events,
      droppedAttributesCount: record.dropped[0],
      droppedEventsCount: record.dropped[1],
      droppedLinksCount: record.dropped[2],
      resource: resources[record.resource]!,
      instrumentationScope: batch.scopes[record.scope]!,
    };
  });
}

/** The resource the request thread's SDK resolved (detectors done), as received: data only. */
class ReceivedResource implements Resource {
  readonly attributes: Attributes;
  readonly schemaUrl?: string;
  constructor(attributes: Attributes, schemaUrl?: string) {
    this.attributes = attributes;
    if (schemaUrl !== undefined) this.schemaUrl = schemaUrl;
  }

  merge(other: Resource | null): Resource {
    return new ReceivedResource({ ...this.attributes, ...other?.attributes }, other?.schemaUrl ?? this.schemaUrl);
  }

  getRawAttributes(): ReturnType<Resource['getRawAttributes']> {
    return Object.entries(this.attributes);
  }
}
