import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { pino, type Logger } from 'pino';
import { traceEmbeddedQueries } from '../spans/embedded-query-spans.ts';
import { RequestSpans } from '../spans/request-spans.ts';
import { samplerFromEnv } from './sampler-from-env.ts';
import { scrubSecrets } from '../export/scrubbing-exporter.ts';
import { DEFAULT_SERVICE_NAME } from './settings.ts';
import type { Tracing } from './tracing-handle.ts';
import { WorkerSpanProcessor } from '../export/worker-span-processor.ts';

const SHUTDOWN_MS = 2_000;

/**
 * The SDK, configured by the standard OTEL_* variables alone (sampler, batch processor, limits,
 * endpoint, headers, resource). Traces only: airkey's metrics are /metrics and its logs are stdout.
 * A configuration the SDK warns about is not half-applied: its warning is logged and airkey runs
 * untraced.
 */
export async function startSdk(env: NodeJS.ProcessEnv): Promise<Tracing | undefined> {
  const log = pino({ level: env.LOG_LEVEL || 'info', name: 'tracing' });
  const diagnostics = new DiagnosticsLog(log);
  const level = diagLevel(env.OTEL_LOG_LEVEL);
  diag.setLogger(diagnostics, level);
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  if (protocol && protocol !== 'http/protobuf')
    diag.warn(`OTLP protocol "${protocol}" is not supported: only http/protobuf`);

  // Batching, encoding and sending spans happen on a worker thread; its configuration warnings count here.
  const processor = await WorkerSpanProcessor.start({
    env,
    level,
    onDiag: (at, message) => diagnostics[at](message),
    onFailure: (message) =>
      log.warn(
        { err_message: message },
        'trace export failed; spans are dropped until the collector answers again (requests are not affected)',
      ),
  }).catch((error: unknown) => diagnostics.warn('the export worker did not start', error));
  const { sampler, rootRatio } = samplerFromEnv(env);
  const requests = new RequestSpans(sampler, rootRatio);
  const sdk = new NodeSDK({
    sampler,
    idGenerator: requests.idGenerator,
    // Unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names the service (the SDK reads both).
    ...(serviceNamedBy(env) ? {} : { serviceName: DEFAULT_SERVICE_NAME }),
    ...(processor ? { spanProcessors: [processor] } : {}),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Background queries (the change feed's heartbeat, flushes, sweeps) would each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  });
  // NodeSDK installs a console logger of its own when OTEL_LOG_LEVEL is set; keep this one
  // (disabled first: replacing a logger is itself a warning).
  diag.disable();
  diag.setLogger(diagnostics, level);
  sdk.start();
  const problems = diagnostics.endStartup();
  if (problems > 0) {
    // The SDK already said what was wrong at start; tracing is off, so its shutdown failing changes nothing.
    await sdk.shutdown().catch(() => {});
    trace.disable();
    context.disable();
    propagation.disable();
    log.warn('tracing is off: the OpenTelemetry configuration above is invalid');
    return undefined;
  }
  log.info('tracing on: spans are exported over OTLP');
  return {
    instrument: (app) => requests.instrument(app),
    traceEmbeddedQueries,
    shutdown: () => withinTime(sdk.shutdown(), SHUTDOWN_MS),
  };
}

function serviceNamedBy(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_SERVICE_NAME?.trim()) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
}

function diagLevel(value: string | undefined): DiagLogLevel {
  const level = value?.trim().toUpperCase() as keyof typeof DiagLogLevel | undefined;
  return level && level in DiagLogLevel ? DiagLogLevel[level] : DiagLogLevel.WARN;
}

function withinTime(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  // Shutting down: a failed flush loses spans, which must not fail or delay the process's exit.
  return Promise.race([work.catch(() => {}), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The SDK's own diagnostics as log lines. While the SDK starts, a warning or error means a variable
 * it could not use; afterwards each kind of message is logged once (a collector that stays away
 * would otherwise write a line per batch).
 */
class DiagnosticsLog implements DiagLogger {
  private startup = true;
  private problems = 0;
  private readonly seen = new Set<string>();

  private readonly log: Logger;
  constructor(log: Logger) {
    this.log = log;
  }

  endStartup(): number {
    this.startup = false;
    return this.problems;
  }

  error(message: string, ...args: unknown[]): void {
    this.write('warn', message, args);
  }

  warn(message: string, ...args: unknown[]): void {
    this.write('warn', message, args);
  }

  info(message: string, ...args: unknown[]): void {
    this.write('info', message, args);
  }

  debug(message: string, ...args: unknown[]): void {
    this.write('debug', message, args);
  }

  verbose(message: string, ...args: unknown[]): void {
    this.write('trace', message, args);
  }

  private write(level: 'warn' | 'info' | 'debug' | 'trace', message: string, args: unknown[]): void {
    if (level === 'warn' && this.startup) this.problems++;
    else if (level === 'warn') {
      const kind = message.replace(/\d+/g, '#');
      if (this.seen.has(kind)) return;
      this.seen.add(kind);
    }
    const detail = args
      .map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : ''))
      .join(' ');
    this.log[level](scrubSecrets(detail ? `OpenTelemetry: ${message} ${detail}` : `OpenTelemetry: ${message}`));
  }
}
