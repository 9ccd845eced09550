import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

/** One span as an OTLP/HTTP receiver decodes it (ids in hex, as in a `traceparent`). */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  status: { code: number; message: string };
  scope: string;
  service: string;
};

export type OtlpReceiver = {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter appends /v1/traces. */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body exactly as it arrived, before any decoding. */
  bodies: Buffer[];
  close(): Promise<void>;
};

/**
 * A real OTLP/HTTP receiver on 127.0.0.1: accepts POST /v1/traces in the protobuf encoding the
 * SDK's exporter sends (opentelemetry/proto/collector/trace/v1), keeps the raw bytes and decodes
 * the spans with otlp-transformer's protobuf reader.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: Buffer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      bodies.push(body);
      try {
        spans.push(...decodeExportRequest(body));
      } catch {
        response.writeHead(400).end();
        return;
      }
      // An empty ExportTraceServiceResponse: full success.
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Field = { number: number; wire: number; bytes?: Uint8Array; value?: number; fixed?: Uint8Array };

/** The fields of one message; nested messages stay bytes until their caller decodes them. */
function fields(buffer: Uint8Array): Field[] {
  const reader = new ProtobufReader(buffer);
  const out: Field[] = [];
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (wireType === 2) out.push({ number: fieldNumber, wire: wireType, bytes: reader.readBytes() });
    else if (wireType === 0) out.push({ number: fieldNumber, wire: wireType, value: reader.readVarint() });
    else {
      const start = reader.pos;
      reader.skip(wireType);
      out.push({ number: fieldNumber, wire: wireType, fixed: buffer.subarray(start, reader.pos) });
    }
  }
  return out;
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
const sub = (message: Field[], number: number) => message.filter((field) => field.number === number);

function decodeExportRequest(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of sub(fields(body), 1)) {
    const resourceFields = fields(resourceSpans.bytes!);
    const resource = sub(resourceFields, 1)[0];
    const resourceAttributes = resource ? attributesOf(fields(resource.bytes!), 1) : {};
    for (const scopeSpans of sub(resourceFields, 2)) {
      const scopeFields = fields(scopeSpans.bytes!);
      const scope = sub(scopeFields, 1)[0];
      const scopeName = scope ? text(sub(fields(scope.bytes!), 1)[0]?.bytes) : '';
      for (const span of sub(scopeFields, 2)) {
        spans.push({
          ...decodeSpan(fields(span.bytes!)),
          scope: scopeName,
          service: String(resourceAttributes['service.name']),
        });
      }
    }
  }
  return spans;
}

function decodeSpan(span: Field[]): Omit<ReceivedSpan, 'scope' | 'service'> {
  const status = sub(span, 15)[0];
  const statusFields = status ? fields(status.bytes!) : [];
  return {
    traceId: hex(sub(span, 1)[0]?.bytes),
    spanId: hex(sub(span, 2)[0]?.bytes),
    parentSpanId: hex(sub(span, 4)[0]?.bytes),
    name: text(sub(span, 5)[0]?.bytes),
    kind: sub(span, 6)[0]?.value ?? 0,
    attributes: attributesOf(span, 9),
    events: sub(span, 11).map((event) => {
      const eventFields = fields(event.bytes!);
      return { name: text(sub(eventFields, 2)[0]?.bytes), attributes: attributesOf(eventFields, 3) };
    }),
    status: { message: text(sub(statusFields, 2)[0]?.bytes), code: sub(statusFields, 3)[0]?.value ?? 0 },
  };
}

function attributesOf(message: Field[], number: number): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const keyValue of sub(message, number)) {
    const pair = fields(keyValue.bytes!);
    const value = sub(pair, 2)[0];
    attributes[text(sub(pair, 1)[0]?.bytes)] = value ? anyValue(fields(value.bytes!)) : undefined;
  }
  return attributes;
}

function anyValue(value: Field[]): unknown {
  const field = value[0];
  if (!field) return undefined;
  switch (field.number) {
    case 1:
      return text(field.bytes);
    case 2:
      return field.value === 1;
    case 3:
      return field.value;
    case 4:
      return Buffer.from(field.fixed!).readDoubleLE(0);
    case 5:
      return sub(fields(field.bytes!), 1).map((item) => anyValue(fields(item.bytes!)));
    default:
      return field.bytes ? hex(field.bytes) : field.value;
  }
}
