import { parentPort, workerData } from 'node:worker_threads';
import { diag, type DiagLogger } from '@opentelemetry/api';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { encodeTraceRequest } from './otlp-trace-encoding.ts';
import { SpanBatchReader } from './span-records.ts';
import { ScrubbingExporter } from './scrubbing-exporter.ts';
import type { FromWorker, ToWorker } from './worker-span-processor.ts';

/**
 * The export worker (started by worker-span-processor.ts): the SDK's batch processor, configured by
 * the OTEL_BSP_* variables as the SDK would configure it, takes the spans the request thread hands
 * over; its batches are scrubbed, encoded and sent by the standard OTLP/HTTP exporter, which reads
 * the same OTEL_* variables here (endpoint, headers, timeout, compression, retries). Its diagnostics
 * go back to the request thread's log.
 */
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

const forward = (level: 'warn' | 'info' | 'debug' | 'verbose'): DiagLogger[keyof DiagLogger] => {
  return (message: string, ...args: unknown[]) =>
    post({
      type: 'diag',
      level,
      message: [
        message,
        ...args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : '')),
      ]
        .filter(Boolean)
        .join(' '),
    });
};
diag.setLogger(
  {
    error: forward('warn'),
    warn: forward('warn'),
    info: forward('info'),
    debug: forward('debug'),
    verbose: forward('verbose'),
  },
  (workerData as { level: number }).level,
);

/** A batch processor setting as NodeSDK reads it: a number above zero, or the default with a warning. */
function positiveFromEnv(name: string): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (value > 0) return value;
  diag.warn(`${name} (${raw}) is invalid, expected number greater than 0, using default.`);
  return undefined;
}

/**
 * @opentelemetry/exporter-trace-otlp-proto's OTLPTraceExporter, built from the same parts, with the
 * protobuf written by otlp-trace-encoding.ts: the same bytes for less work (docs/performance.md).
 */
function otlpTraceExporter(): OTLPExporterBase<ReadableSpan[]> {
  const options = convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  const serializer = {
    serializeRequest: encodeTraceRequest,
    deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
  };
  return new OTLPExporterBase(
    createOtlpHttpExportDelegate(options, serializer, 'otlp_http_span_exporter', TraceExporterMetricsHelper, undefined),
  );
}

const processor = new BatchSpanProcessor({
  exporter: new ScrubbingExporter(otlpTraceExporter(), (error) => post({ type: 'failure', message: error?.message })),
  maxQueueSize: positiveFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
  scheduledDelayMillis: positiveFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
  exportTimeoutMillis: positiveFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
  maxExportBatchSize: positiveFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
});

const batches = new SpanBatchReader();
port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'spans':
      for (const span of batches.read(message.batch)) processor.onEnd(span);
      break;
    case 'flush':
      void processor.forceFlush().finally(() => post({ type: 'flushed', id: message.id }));
      break;
    case 'shutdown':
      void processor.shutdown().finally(() => {
        post({ type: 'flushed', id: message.id });
        port.close();
      });
      break;
  }
});
post({ type: 'ready' });
