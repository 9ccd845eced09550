/**
 * The OTLP protobuf encoding alone: the export worker's one-pass writer (otlp-trace-encoding.ts)
 * against the SDK's ProtobufTraceSerializer (@opentelemetry/otlp-transformer), on batches of
 * whoami-shaped spans (a server span with its route, status and key attributes, a key-lookup child)
 * under one resource of fifteen attributes. Rounds alternate between the two; the figure is the
 * median CPU time a span, and the per-round quotient (ours / the SDK's).
 * Usage: node bench/otlp-encoding.ts [--spans=512] [--rounds=15] [--batches=40]
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { parseArgs } from 'node:util';
import { encodeTraceRequest } from '../src/telemetry/export/otlp-trace-encoding.ts';
import { median } from './measure.ts';

const { values: options } = parseArgs({
  options: {
    spans: { type: 'string', default: '512' },
    rounds: { type: 'string', default: '15' },
    batches: { type: 'string', default: '40' },
  },
});
const count = Number(options.spans);
const rounds = Number(options.rounds);
const batches = Number(options.batches);

function whoamiSpans(pairs: number): ReadableSpan[] {
  const kept = new InMemorySpanExporter();
  const resource = resourceFromAttributes({
    'service.name': 'airkey',
    'telemetry.sdk.language': 'nodejs',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': '2.2.0',
    'host.name': 'bench-host',
    'host.arch': 'amd64',
    'host.id': '5f0c7e2b9d5e4a6f8c1b2a3d4e5f6a7b',
    'os.type': 'linux',
    'os.version': '6.1.0',
    'process.pid': 4242,
    'process.executable.name': 'node',
    'process.executable.path': '/usr/bin/node',
    'process.command_args': ['/usr/bin/node', 'bin/airkey', 'serve'],
    'process.runtime.version': '24.21.0',
    'process.runtime.name': 'nodejs',
  });
  const provider = new TracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor({ exporter: kept })] });
  const server = provider.getTracer('airkey', '0.1.0');
  const keys = provider.getTracer('airkey-keys', '0.1.0');
  for (let index = 0; index < pairs; index++) {
    const span = server.startSpan('GET /api/v1/whoami', {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/api/v1/whoami',
        'url.scheme': 'http',
        'http.route': '/api/v1/whoami',
      },
    });
    const parent = trace.setSpan(ROOT_CONTEXT, span);
    const lookup = keys.startSpan('airkey.key_lookup', { attributes: { 'airkey.key.cached': true } }, parent);
    lookup.end();
    span.setAttribute('airkey.key_check.outcome', 'accepted');
    span.setAttribute('airkey.key.id', `key_${index.toString(36).padStart(20, '0')}`);
    span.setAttribute('airkey.tenant.id', 'ten_01jd0000000000000000000000');
    span.setAttribute('http.response.status_code', 200);
    span.setStatus({ code: SpanStatusCode.UNSET });
    span.end();
  }
  void provider.forceFlush();
  return kept.getFinishedSpans();
}

const spans = whoamiSpans(count / 2);
const encoders = {
  ours: (batch: ReadableSpan[]) => encodeTraceRequest(batch),
  sdk: (batch: ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(batch)!,
};
if (Buffer.compare(Buffer.from(encoders.ours(spans)), Buffer.from(encoders.sdk(spans))) !== 0)
  throw new Error('the two encodings differ');

const usPerSpan = { ours: [] as number[], sdk: [] as number[] };
const quotients: number[] = [];
let bytes = 0;
for (let round = -2; round < rounds; round++) {
  const order = round % 2 ? (['sdk', 'ours'] as const) : (['ours', 'sdk'] as const);
  const took = { ours: 0, sdk: 0 };
  for (const name of order) {
    const started = process.cpuUsage();
    for (let batch = 0; batch < batches; batch++) bytes += encoders[name](spans).length;
    const used = process.cpuUsage(started);
    took[name] = (used.user + used.system) / (batches * spans.length);
  }
  if (round < 0) continue; // warm-up: both optimised before counting
  usPerSpan.ours.push(took.ours);
  usPerSpan.sdk.push(took.sdk);
  quotients.push(took.ours / took.sdk);
}
console.log(
  `${spans.length} spans a batch, ${rounds} rounds of ${batches} batches (${(bytes / 1e6).toFixed(0)} MB written)\n` +
    `  ours: ${median(usPerSpan.ours).toFixed(3)} µs a span (CPU)\n` +
    `  SDK:  ${median(usPerSpan.sdk).toFixed(3)} µs a span (CPU)\n` +
    `  ours / SDK, median of paired rounds: ${median(quotients).toFixed(3)}`,
);
