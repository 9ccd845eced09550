import { randomFillSync } from 'node:crypto';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';
import { RandomIdGenerator, SamplingDecision, type IdGenerator, type Sampler } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { scrubSecrets } from './scrubbing-exporter.ts';

const NO_ATTRIBUTES: Attributes = Object.freeze({});
const NO_LINKS: Link[] = [];
const INVALID_TRACE_ID = '0'.repeat(32);
const IDS_PER_DRAW = 256;

/**
 * Random trace ids drawn 256 at a time: one draw and one hex encoding for the lot, where the SDK's
 * generator writes and encodes a buffer per id; this runs for every request, sampled or not.
 */
class TraceIdPool {
  private readonly bytes = Buffer.alloc(16 * IDS_PER_DRAW);
  private hex = '';
  private next = IDS_PER_DRAW;

  take(): string {
    if (this.next === IDS_PER_DRAW) {
      this.hex = randomFillSync(this.bytes).toString('hex');
      this.next = 0;
    }
    const id = this.hex.slice(this.next * 32, ++this.next * 32);
    return id === INVALID_TRACE_ID ? this.take() : id;
  }
}

/**
 * The server span of each request the sampler keeps, and nothing at all for the others: the
 * decision comes first, on a trace id drawn here (or the caller's, under a parent), so a dropped
 * request makes no span object, enters no context and sets no field. A kept request's span gets
 * that very trace id (`idGenerator`), so the SDK's sampler, asked again by the tracer, agrees. The
 * span is the active context while the request's hooks and handler run, so the key lookup and the
 * queries beneath it become its children; it ends when the response is done. HTTP semantic
 * conventions: `{method} {route}`, the route template, the status; the path with any key scrubbed.
 */
export class RequestSpans {
  private readonly sampler: Sampler;
  private readonly traceIds = new TraceIdPool();
  private readonly spanIds = new RandomIdGenerator();
  private drawnTraceId: string | undefined;

  constructor(sampler: Sampler) {
    this.sampler = sampler;
  }

  /** For the SDK: hands the trace id drawn for a kept request to that request's span. */
  readonly idGenerator: IdGenerator = {
    generateTraceId: () => {
      const drawn = this.drawnTraceId;
      this.drawnTraceId = undefined;
      return drawn ?? this.traceIds.take();
    },
    generateSpanId: () => this.spanIds.generateSpanId(),
  };

  /** Hooks on the root instance, ahead of every other hook: every route's requests are seen. */
  instrument(app: FastifyInstance): void {
    const tracer = trace.getTracer('airkey');
    // The headers a propagator reads a parent from, once the SDK has set the propagator.
    const parentFields = propagation.fields();
    app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const parent = hasParent(request, parentFields) ? propagation.extract(ROOT_CONTEXT, request.headers) : undefined;
      const parentSpan = parent && trace.getSpanContext(parent);
      const traceId = parentSpan?.traceId ?? this.traceIds.take();
      const { decision } = this.sampler.shouldSample(
        parent ?? ROOT_CONTEXT,
        traceId,
        'request',
        SpanKind.SERVER,
        NO_ATTRIBUTES,
        NO_LINKS,
      );
      if (decision === SamplingDecision.NOT_RECORD) return done();
      if (!parentSpan) this.drawnTraceId = traceId;
      const route = request.routeOptions.url;
      const span = tracer.startSpan(
        route ? `${request.method} ${route}` : request.method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'url.path': scrubSecrets(request.url.split('?', 1)[0]!),
            'url.scheme': request.protocol,
            ...(route ? { 'http.route': route } : {}),
          },
        },
        parent,
      );
      this.drawnTraceId = undefined;
      request.traceSpan = span;
      enterSpan(trace.setSpan(parent ?? ROOT_CONTEXT, span), done);
    });
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const span = request.traceSpan;
      if (span) {
        span.setAttribute('http.response.status_code', reply.statusCode);
        if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      done();
    });
  }
}

/** The rest of the request's hooks and its handler run inside `done`, and so inside the span. */
function enterSpan(active: Context, done: HookHandlerDoneFunction): void {
  context.with(active, done);
}

function hasParent(request: FastifyRequest, fields: readonly string[]): boolean {
  for (const field of fields) if (request.headers[field] !== undefined) return true;
  return false;
}
