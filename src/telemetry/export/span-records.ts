import { createTraceState, type Attributes, type HrTime, type Link, type SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];
type Status = ReadableSpan['status'];
type LinkRecord = { context: SpanContext; attributes?: Attributes; droppedAttributesCount?: number };

/**
 * Finished spans as one flat array of strings and numbers, for the export worker. A structured
 * clone of a packed array of primitives costs a fraction of the same spans as objects, and it is
 * the request thread that pays for the clone (docs/performance.md, Tracing). A resource travels
 * once, in the first batch that holds one of its spans, and is named by its id after that: cloning
 * its attributes cost as much as a lot's spans. Scopes travel once per batch, by index; events and
 * links (rare on a request's spans) as they are, a trace state as its header.
 */
export type SpanBatch = {
  values: unknown[];
  resources: Array<{ id: number; attributes: Attributes; schemaUrl?: string }>;
  scopes: Scope[];
};

/** On the request thread: spans written into a batch as they end. */
export class SpanBatchWriter {
  private values: unknown[] = [];
  /** Every resource this writer has seen, by its id; the worker keeps those it was sent. */
  private readonly resourceIds = new Map<Resource, number>();
  private newResources: Resource[] = [];
  private scopes: Scope[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /**
   * A resource of this batch, not yet sent, whose detectors have not all answered (the host's id
   * is read from a file). Its attributes read before then leave those out, and the SDK warns.
   */
  unsettledResource(): Resource | undefined {
    return this.newResources.find((resource) => resource.asyncAttributesPending);
  }

  add(span: ReadableSpan): void {
    const values = this.values;
    const context = span.spanContext();
    const parent = span.parentSpanContext;
    values.push(
      span.name,
      span.kind,
      context.traceId,
      context.spanId,
      context.traceFlags,
      context.traceState?.serialize(),
      parent?.traceId,
      parent?.spanId,
      parent?.traceFlags,
      parent?.traceState?.serialize(),
      parent?.isRemote,
      span.startTime[0],
      span.startTime[1],
      span.endTime[0],
      span.endTime[1],
      span.duration[0],
      span.duration[1],
      span.status.code,
      span.status.message,
      span.droppedAttributesCount,
      span.droppedEventsCount,
      span.droppedLinksCount,
      this.resourceIdOf(span.resource),
      indexOf(this.scopes, span.instrumentationScope),
      span.events.length === 0 ? undefined : span.events,
      span.links.length === 0 ? undefined : span.links.map(linkRecord),
    );
    const countAt = values.push(0) - 1;
    for (const key in span.attributes) values.push(key, span.attributes[key]);
    values[countAt] = (values.length - countAt - 1) / 2;
    this.count++;
  }

  /** The batch so far, and a fresh one begun. */
  take(): SpanBatch {
    const batch: SpanBatch = {
      values: this.values,
      resources: this.newResources.map((resource) => ({
        id: this.resourceIds.get(resource)!,
        attributes: resource.attributes,
        schemaUrl: resource.schemaUrl,
      })),
      scopes: this.scopes.map(({ name, version, schemaUrl }) => ({ name, version, schemaUrl })),
    };
    this.values = [];
    this.newResources = [];
    this.scopes = [];
    this.count = 0;
    return batch;
  }

  private resourceIdOf(resource: Resource): number {
    let id = this.resourceIds.get(resource);
    if (id === undefined) {
      id = this.resourceIds.size;
      this.resourceIds.set(resource, id);
      this.newResources.push(resource);
    }
    return id;
  }
}

/**
 * In the export worker: each batch as the spans the SDK's batch processor and the OTLP exporter
 * take, its resources kept for the batches that name them later.
 */
export class SpanBatchReader {
  // One object per resource, shared by its spans: the OTLP encoding groups spans by resource identity.
  private readonly resources = new Map<number, ReceivedResource>();

  read(batch: SpanBatch): ReadableSpan[] {
    for (const { id, attributes, schemaUrl } of batch.resources)
      this.resources.set(id, new ReceivedResource(attributes, schemaUrl));
    return readSpans(batch, this.resources);
  }
}

function readSpans(batch: SpanBatch, resources: ReadonlyMap<number, Resource>): ReadableSpan[] {
  const values = batch.values;
  const spans: ReadableSpan[] = [];
  let at = 0;
  const next = <T>() => values[at++] as T;
  while (at < values.length) {
    const name = next<string>();
    const kind = next<ReadableSpan['kind']>();
    const context = spanContext(next(), next(), next(), next());
    const parentTraceId = next<string | undefined>();
    const parentSpanId = next<string>();
    const parentFlags = next<number>();
    const parentState = next<string | undefined>();
    const parentRemote = next<boolean | undefined>();
    const parent =
      parentTraceId === undefined
        ? undefined
        : spanContext(parentTraceId, parentSpanId, parentFlags, parentState, parentRemote);
    const startTime: HrTime = [next(), next()];
    const endTime: HrTime = [next(), next()];
    const duration: HrTime = [next(), next()];
    const code = next<Status['code']>();
    const message = next<string | undefined>();
    const status: Status = message === undefined ? { code } : { code, message };
    const droppedAttributesCount = next<number>();
    const droppedEventsCount = next<number>();
    const droppedLinksCount = next<number>();
    const resource = resources.get(next<number>())!;
    const instrumentationScope = batch.scopes[next<number>()]!;
    const events = next<ReadableSpan['events'] | undefined>() ?? [];
    const links = (next<LinkRecord[] | undefined>() ?? []).map(receivedLink);
    const attributes: Attributes = {};
    for (let remaining = next<number>(); remaining > 0; remaining--) attributes[next<string>()] = next();
    spans.push({
      name,
      kind,
      spanContext: () => context,
      parentSpanContext: parent,
      startTime,
      endTime,
      duration,
      ended: true,
      status,
      attributes,
      links,
      events,
      droppedAttributesCount,
      droppedEventsCount,
      droppedLinksCount,
      resource,
      instrumentationScope,
    });
  }
  return spans;
}

function indexOf<T>(list: T[], item: T): number {
  const index = list.indexOf(item);
  return index === -1 ? list.push(item) - 1 : index;
}

/** A link's context as plain data: a TraceState object cannot be cloned, its header can. */
function linkRecord(link: Link): LinkRecord {
  const { traceState, ...context } = link.context;
  return {
    ...link,
    context: traceState === undefined ? context : ({ ...context, traceState: traceState.serialize() } as never),
  };
}

function receivedLink(link: LinkRecord): Link {
  const { traceState, ...context } = link.context as Omit<SpanContext, 'traceState'> & { traceState?: string };
  return {
    ...link,
    context: spanContext(context.traceId, context.spanId, context.traceFlags, traceState, context.isRemote),
  };
}

function spanContext(
  traceId: string,
  spanId: string,
  traceFlags: number,
  traceState: string | undefined,
  isRemote?: boolean,
): SpanContext {
  return {
    traceId,
    spanId,
    traceFlags,
    ...(traceState === undefined ? {} : { traceState: createTraceState(traceState) }),
    ...(isRemote === undefined ? {} : { isRemote }),
  };
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
