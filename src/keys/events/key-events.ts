import type { Actor } from '../../shared/actor.ts';
import type { EventRecord, WebhookEventType } from '../../shared/event-types.ts';
import type { StoredKeyView } from '../key-rows.ts';
import { toApiKeyView } from '../key-view.ts';

/** Who caused an event, as the audit trail names them (`actor` of an AuditEvent). */
export type EventActor = Actor | { type: 'user'; id: string | null; email: string };

/** A key an event concerns: its stored view and its tenant. */
export type EventKey = StoredKeyView & { tenantId: string };

/** The events about a key: the `api_key.*` part of the one list (src/shared/event-types.ts). */
export type KeyEventType = Extract<WebhookEventType, `api_key.${string}`>;

export function actorView(actor: EventActor): { type: 'user' | 'system'; id: string | null; email: string | null } {
  return actor.type === 'user'
    ? { type: 'user', id: actor.id, email: actor.email }
    : { type: 'system', id: null, email: null };
}

/**
 * The webhook event of a change to a key: `data.api_key` is the ApiKey the back office shows, never
 * anything of its secret but the hint. `extra` adds the event's own fields (`reason`, `days_left`).
 */
export function keyEvent(
  type: KeyEventType,
  key: EventKey,
  nowMs: number,
  actor: EventActor,
  extra: Record<string, unknown> = {},
): EventRecord {
  return {
    tenantId: key.tenantId,
    type,
    at: new Date(nowMs),
    data: { api_key: toApiKeyView(key, nowMs), actor: actorView(actor), ...extra },
  };
}

/** `api_key.rate_limited`: the first refusal of a key over its limit in a window (the system acts). */
export function rateLimitedEvent(
  key: EventKey,
  nowMs: number,
  window: { requests: number; window: string; windowStart: Date; windowEnd: Date },
): EventRecord {
  return keyEvent(
    'api_key.rate_limited',
    key,
    nowMs,
    { type: 'system' },
    {
      rate_limit: { requests: window.requests, window: window.window },
      window_start: window.windowStart.toISOString(),
      window_end: window.windowEnd.toISOString(),
    },
  );
}

/** `api_key.rate_limit_changed`: `before` and `after` are RateLimit values or null. */
export function rateLimitChangedEvent(
  key: EventKey,
  nowMs: number,
  actor: EventActor,
  before: { requests: number; window: string } | null,
  after: { requests: number; window: string } | null,
): EventRecord {
  return keyEvent('api_key.rate_limit_changed', key, nowMs, actor, { before, after });
}
