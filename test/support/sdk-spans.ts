import { createTraceState, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/** The real SDK's tracer, each span kept as it ends: `finished()` once the spans are done. */
export function recordingTracer(name: string, version: string) {
  const kept = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: kept })] });
  return {
    tracer: provider.getTracer(name, version),
    finished: async () => {
      await provider.forceFlush();
      return kept.getFinishedSpans();
    },
  };
}

/** A caller's span arriving with the request (remote, sampled, with a trace state). */
export const REMOTE_CALLER: Context = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  traceState: createTraceState('vendor=opaque'),
  isRemote: true,
});
