import { trace } from '@opentelemetry/api';

/** A pino mixin: the active span's ids on every log line written while it is active. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
