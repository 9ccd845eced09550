import { freshPostgresUrl } from '../support/databases.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.ts';
import { waitFor } from '../support/wait-for.ts';
import { ADMIN, createKey, signIn, startInstance, type Instance } from '../support/instances.ts';

export { ADMIN };

/** What a traced test needs: a receiver, a real `airkey serve` on PostgreSQL exporting to it, a key. */
export type TracedServer = {
  receiver: OtlpReceiver;
  server: Instance;
  key: { id: string; secret: string };
  tenantId: string;
  stop(): Promise<void>;
};

/** OTEL variables for a server exporting to `receiver` quickly, everything sampled unless `extra` says otherwise. */
export function otelEnv(receiverUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: '50', LOG_LEVEL: 'info', ...extra };
}

export async function startTracedServer(
  extra: Record<string, string> = {},
  engine: 'postgres' | 'embedded' = 'postgres',
): Promise<TracedServer> {
  const receiver = await startOtlpReceiver();
  const databaseUrl = engine === 'postgres' ? await freshPostgresUrl() : undefined;
  const server = await startInstance(`traced (${engine})`, databaseUrl, otelEnv(receiver.url, extra));
  const session = await signIn(server, ADMIN.email);
  const key = await createKey(session, server, 'traced key');
  return {
    receiver,
    server,
    key,
    tenantId: session.tenantId,
    async stop() {
      await server.stop();
      await receiver.close();
    },
  };
}

/** Waits until the receiver holds a span that `match` accepts, and returns it. */
export async function spanWhere(receiver: OtlpReceiver, match: (span: ReceivedSpan) => boolean, what: string) {
  await waitFor(() => receiver.spans.some(match), { timeoutMs: 10_000, what });
  return receiver.spans.find(match)!;
}

/** The spans of one trace, once its server span has arrived. */
export async function traceOf(receiver: OtlpReceiver, traceId: string): Promise<ReceivedSpan[]> {
  await spanWhere(receiver, (span) => span.traceId === traceId && span.kind === SERVER, `trace ${traceId}`);
  return receiver.spans.filter((span) => span.traceId === traceId);
}

/** OTLP's SpanKind numbering (SPAN_KIND_SERVER). */
export const SERVER = 2;

/** A W3C traceparent from a caller whose trace the server must continue. */
export function callerTraceparent(): { header: string; traceId: string; parentId: string } {
  const traceId = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  const parentId = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex');
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
}
