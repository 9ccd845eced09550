import { trace } from '@opentelemetry/api';
import type { LoggerOptions } from 'pino';

type TraceFields = { trace_id?: string; span_id?: string };

// Returned while no span is active: one shared object, which `mergeTraceFields` recognises.
const NONE: TraceFields = Object.freeze({});

/** A pino mixin: the active span's ids on every log line written while it is active. */
function traceFields(): TraceFields {
  const span = trace.getActiveSpan();
  if (!span) return NONE;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * pino's merge, without its copy of every field of the line into the mixin's object when that
 * object is empty: the case of every untraced request's lines while tracing is on.
 */
const mergeTraceFields: NonNullable<LoggerOptions['mixinMergeStrategy']> = (line, fields) =>
  fields === NONE ? line : Object.assign(fields, line);

/** The pino options that add the trace fields. */
export const traceLogOptions: Pick<LoggerOptions, 'mixin' | 'mixinMergeStrategy'> = {
  mixin: traceFields,
  mixinMergeStrategy: mergeTraceFields,
};
