import { randomFillSync } from 'node:crypto';
import { propagation, ROOT_CONTEXT, SpanKind, type Attributes, type Link } from '@opentelemetry/api';
import { RandomIdGenerator, SamplingDecision, type IdGenerator, type Sampler } from '@opentelemetry/sdk-trace';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

type RequestTarget = { url: string; method: string };

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
 * The sampler's decision for a request, taken before @fastify/otel sees it. @fastify/otel builds a
 * span and enters its context for every request, sampled or not, which costs an unsampled request
 * as much as the rest of its handling (docs/performance.md (Tracing)). A request that carries no
 * parent is asked of the SDK's own sampler, on a trace id drawn here: dropped, @fastify/otel skips
 * it (its `ignorePaths`); kept, the SDK's span gets that very trace id (its `idGenerator`), so the
 * SDK's sampler, asked again, decides the same. A request with a parent goes to the SDK as it is.
 *
 * The decision reaches @fastify/otel through a slot that lives only while its hook runs, which
 * Fastify calls from this hook's `done()` in the same synchronous step.
 */
export class RequestSampling {
  private skipping: FastifyRequest | undefined;
  private drawnTraceId: string | undefined;
  private readonly traceIds = new TraceIdPool();
  private readonly spanIds = new RandomIdGenerator();
  private parentFields: string[] = [];

  private readonly sampler: Sampler;
  constructor(sampler: Sampler) {
    this.sampler = sampler;
  }

  /** For the SDK: hands a trace id drawn for a kept request to that request's span. */
  readonly idGenerator: IdGenerator = {
    generateTraceId: () => {
      const drawn = this.drawnTraceId;
      this.drawnTraceId = undefined;
      return drawn ?? this.traceIds.take();
    },
    generateSpanId: () => this.spanIds.generateSpanId(),
  };

  /** For @fastify/otel: true for the request this hook has just dropped, false for anything else. */
  readonly ignores = (target: RequestTarget): boolean => {
    const skipping = this.skipping;
    this.skipping = undefined;
    return skipping !== undefined && skipping.url === target.url && skipping.method === target.method;
  };

  /** @fastify/otel's plugin, behind the hook that decides first. */
  plugin(otel: FastifyPluginCallback): FastifyPluginCallback {
    const decide = this.decide;
    const gated: FastifyPluginCallback = (instance, options, done) => {
      // The headers a propagator reads a parent from, once the SDK has set the propagator.
      this.parentFields = propagation.fields();
      instance.addHook('onRequest', decide);
      otel(instance, options, done);
    };
    for (const symbol of Object.getOwnPropertySymbols(otel)) Object.assign(gated, { [symbol]: otel[symbol as never] });
    return gated;
  }

  private readonly decide = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (this.hasParent(request)) return done();
    const traceId = this.traceIds.take();
    const { decision } = this.sampler.shouldSample(
      ROOT_CONTEXT,
      traceId,
      'request',
      SpanKind.SERVER,
      NO_ATTRIBUTES,
      NO_LINKS,
    );
    if (decision === SamplingDecision.NOT_RECORD) this.skipping = request;
    else this.drawnTraceId = traceId;
    try {
      done();
    } finally {
      this.skipping = undefined;
      this.drawnTraceId = undefined;
    }
  };

  private hasParent(request: FastifyRequest): boolean {
    for (const field of this.parentFields) if (request.headers[field] !== undefined) return true;
    return false;
  }
}
