import { parentPort, workerData } from 'node:worker_threads';
import { diag, type DiagLogger } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { readableSpans } from './span-records.ts';
import { ScrubbingExporter } from './scrubbing-exporter.ts';
import type { FromWorker, ToWorker } from './worker-exporter.ts';

/**
 * The export worker (started by worker-exporter.ts): scrubs, encodes and sends the batches the
 * request thread hands over, with the standard OTLP exporter, which reads the same OTEL_*
 * variables here. Its diagnostics go back to the request thread's log.
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

const exporter = new ScrubbingExporter(new OTLPTraceExporter(), (error) =>
  post({ type: 'failure', message: error?.message }),
);

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'export':
      exporter.export(readableSpans(message.batch), () => post({ type: 'exported', id: message.id }));
      break;
    case 'flush':
      void exporter.forceFlush().finally(() => post({ type: 'flushed', id: message.id }));
      break;
    case 'shutdown':
      void exporter.shutdown().finally(() => {
        post({ type: 'flushed', id: message.id });
        port.close();
      });
      break;
  }
});
post({ type: 'ready' });
