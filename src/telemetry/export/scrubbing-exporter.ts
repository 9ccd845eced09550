import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { scrubUrl } from '../../shared/redaction.ts';

type Exporter = Required<Pick<SpanExporter, 'export' | 'shutdown' | 'forceFlush'>>;
type Spans = Parameters<SpanExporter['export']>[0];
type ExportedSpan = Spans[number];
type Done = Parameters<SpanExporter['export']>[1];
type Attributes = ExportedSpan['attributes'];

// @opentelemetry/core's ExportResultCode.SUCCESS, without loading core for one number.
const SUCCESS = 0;
const WEBHOOK_SECRET_SHAPED = /whsec_[A-Za-z0-9+/=]+/g;
const QUERY_KEY = /([?&])api_key=[^&#\s]*/gi;
// No instrumentation here is configured to capture headers; these would carry credentials if one were.
const HEADER_ATTRIBUTE = /^http\.(request|response)\.header\./;

/** A key, a key in a query string or a webhook secret, wherever a string holds one, replaced. */
export function scrubSecrets(text: string): string {
  if (!text.includes('ask_') && !text.includes('api_key') && !text.includes('whsec_')) return text;
  return scrubUrl(text.replace(QUERY_KEY, '$1api_key=[REDACTED]')).replace(WEBHOOK_SECRET_SHAPED, 'whsec_[REDACTED]');
}

/**
 * Between the batch processor and the OTLP exporter, off the request path: every exported string
 * (attributes, event attributes, status message, span name) passes the same scrub as log lines,
 * header attributes are dropped, and a server error gets `error.type` (HTTP semantic conventions).
 * An export that fails is dropped, not retried by the batch processor: one warning when export
 * starts failing, none while it keeps failing, so an absent collector neither slows requests nor
 * fills the log.
 */
export class ScrubbingExporter implements Exporter {
  private failing = false;

  private readonly inner: Exporter;
  private readonly onFailure: (error: Error | undefined) => void;
  constructor(inner: Exporter, onFailure: (error: Error | undefined) => void) {
    this.inner = inner;
    this.onFailure = onFailure;
  }

  export(spans: Spans, done: Done): void {
    this.inner.export(spans.map(cleanSpan), (result) => {
      if (Number(result.code) === SUCCESS) this.failing = false;
      else if (!this.failing) {
        this.failing = true;
        this.onFailure(result.error);
      }
      done({ code: SUCCESS });
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
}

function cleanSpan(span: ExportedSpan): ExportedSpan {
  const attributes = cleanAttributes(span.attributes, errorTypeOf(span.attributes));
  const events = span.events.map((event) => {
    const eventAttributes = event.attributes && cleanAttributes(event.attributes);
    const name = scrubSecrets(event.name);
    return eventAttributes === event.attributes && name === event.name
      ? event
      : { ...event, name, attributes: eventAttributes };
  });
  const message = span.status.message && scrubSecrets(span.status.message);
  const name = scrubSecrets(span.name);
  const changed =
    attributes !== span.attributes ||
    events.some((event, index) => event !== span.events[index]) ||
    message !== span.status.message ||
    name !== span.name;
  if (!changed) return span;
  // The rest of the span (its context, times, resource) is read through the prototype chain.
  return Object.create(span, {
    name: { value: name },
    attributes: { value: attributes },
    events: { value: events },
    status: { value: { ...span.status, message } },
  }) as ExportedSpan;
}

function errorTypeOf(attributes: Attributes): string | undefined {
  const status = attributes['http.response.status_code'];
  return typeof status === 'number' && status >= 500 && attributes['error.type'] === undefined
    ? String(status)
    : undefined;
}

function cleanAttributes(attributes: Attributes, errorType?: string): Attributes {
  let clean: Attributes | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    if (HEADER_ATTRIBUTE.test(key)) {
      clean ??= { ...attributes };
      delete clean[key];
    } else if (typeof value === 'string') {
      const scrubbed = scrubSecrets(value);
      if (scrubbed !== value) (clean ??= { ...attributes })[key] = scrubbed;
    } else if (Array.isArray(value) && value.some((item) => typeof item === 'string')) {
      const items = (value as unknown[]).map((item) => (typeof item === 'string' ? scrubSecrets(item) : item));
      if (items.some((item, index) => item !== value[index])) (clean ??= { ...attributes })[key] = items as string[];
    }
  }
  if (errorType !== undefined) (clean ??= { ...attributes })['error.type'] = errorType;
  return clean ?? attributes;
}
