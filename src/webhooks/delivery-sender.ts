import { request, type Dispatcher } from 'undici';
import type { Attempt } from './delivery-repository.ts';
import { signatureHeader } from './signature.ts';
import { monotonicClock } from '../shared/clock.ts';

/** What one attempt sends: the body bytes are the same on every retry, the timestamp is the attempt's. */
export type Outgoing = { deliveryId: string; url: string; body: string; secrets: readonly string[] };

export type SendOptions = { dispatcher: Dispatcher; timeoutMs: number; now: () => number; signal: AbortSignal };

/** The outcome of one attempt: how it went, and whether the endpoint said it is gone (410). */
export type Sent = { attempt: Attempt; delivered: boolean; gone: boolean };

/**
 * One signed POST, never following a redirect (a redirect could lead anywhere, past the address
 * check). Only the status matters: the answer's body is read away unparsed so the connection can be reused.
 */
export async function sendOnce(outgoing: Outgoing, options: SendOptions): Promise<Sent> {
  const startedAt = options.now();
  const started = monotonicClock();
  const id = `msg_${outgoing.deliveryId}`;
  const timestamp = Math.floor(startedAt / 1000);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const attempt = (statusCode: number | null, error: string | null): Attempt => ({
    at: new Date(startedAt).toISOString(),
    status_code: statusCode,
    error,
    duration_ms: Math.round(monotonicClock() - started),
  });
  try {
    const response = await request(outgoing.url, {
      method: 'POST',
      dispatcher: options.dispatcher,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'airkey-webhooks',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(id, timestamp, outgoing.body, outgoing.secrets),
      },
      body: outgoing.body,
      signal: AbortSignal.any([timeout, options.signal]),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    // The body is drained only to free the socket; the status already decided the attempt.
    await response.body.dump().catch(() => undefined);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { attempt: attempt(status, null), delivered: true, gone: false };
    const redirect = status >= 300 && status < 400;
    return { attempt: attempt(status, redirect ? 'redirect' : null), delivered: false, gone: status === 410 };
  } catch (error) {
    const reason = timeout.aborted ? 'timeout' : errorReason(error);
    return { attempt: attempt(null, reason), delivered: false, gone: false };
  }
}

const REASONS: Record<string, string> = {
  ERR_BLOCKED_ADDRESS: 'blocked_address',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  EPIPE: 'connection_reset',
  ENOTFOUND: 'dns_failed',
  EAI_AGAIN: 'dns_failed',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  EHOSTUNREACH: 'host_unreachable',
  ENETUNREACH: 'host_unreachable',
};

/** A short reason for the delivery log: never the error's message, which may quote the URL. */
function errorReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (REASONS[code]) return REASONS[code];
    if (/CERT|TLS|SSL|SELF_SIGNED/.test(code)) return 'tls_error';
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause ? errorReason(cause) : 'connection_failed';
}
