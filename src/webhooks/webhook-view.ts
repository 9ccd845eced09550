import type { AuditTarget } from '../audit/audit-schemas.ts';
import type { WebhookEventType } from '../shared/event-types.ts';
import type { DeliveryRow, WebhookRow } from './webhook-repository.ts';
import type { DeliveryAttempt, DeliveryView, WebhookView } from './webhook-schemas.ts';

/** An endpoint as the API shows it: never its secret, sealed or not. */
export function toWebhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabled_reason: row.disabledReason as WebhookView['disabled_reason'],
    created_at: row.createdAt.toISOString(),
  };
}

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event_type: row.eventType,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    attempts: row.attempts as DeliveryAttempt[],
  };
}

export function webhookTarget(row: Pick<WebhookRow, 'id' | 'url'>): AuditTarget {
  return { type: 'webhook', id: row.id, name: row.url };
}
