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
import { RootSampling } from './root-sampling.ts';
import { scrubSecrets } from '../export/scrubbing-exporter.ts';

const NO_ATTRIBUTES: Attributes = Object.freeze({});
const NO_LINKS: Link[] = [];

/**
 * The server span of each request the sampler keeps, and nothing at all for the others: the
 * decision comes first, on a trace id drawn here (or the caller's, under a parent), so a dropped
 * request makes no span object, enters no context and sets no field; without a parent it is made
 * on the id's random bytes, before they become hex (root-sampling.ts). A kept request's span gets
 * that very trace id (`idGenerator`), so the SDK's sampler, asked again by the tracer, agrees. The
 * span is the active context while the request's hooks and handler run, so the key lookup and the
 * queries beneath it become its children; it ends when the response is done. HTTP semantic
 * conventions: `{method} {route}`, the route template, the status; the path with any key scrubbed.
 */
export class RequestSpans {
  private readonly sampler: Sampler;
  private readonly roots: RootSampling;
  private readonly spanIds = new RandomIdGenerator();
  private drawnTraceId: string | undefined;

  /** `rootRatio`: the share of requests without a parent that `sampler` keeps. */
  constructor(sampler: Sampler, rootRatio: number) {
    this.sampler = sampler;
    this.roots = new RootSampling(rootRatio);
  }

  /** For the SDK: hands the trace id drawn for a kept request to that request's span. */
  readonly idGenerator: IdGenerator = {
    generateTraceId: () => {
      const drawn = this.drawnTraceId;
      this.drawnTraceId = undefined;
      return drawn ?? this.roots.anyId();
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
      if (parentSpan) {
        if (!this.keepsChildOf(parent, parentSpan.traceId)) return done();
      } else {
        const traceId = this.roots.keep();
        if (traceId === undefined) return done();
        this.drawnTraceId = traceId;
      }
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

  /** Under a caller's span: the sampler decides (parent-based: as the caller did). */
  private keepsChildOf(parent: Context, traceId: string): boolean {
    const { decision } = this.sampler.shouldSample(
      parent,
      traceId,
      'request',
      SpanKind.SERVER,
      NO_ATTRIBUTES,
      NO_LINKS,
    );
    return decision !== SamplingDecision.NOT_RECORD;
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
