/** Every event a webhook endpoint can receive (docs/webhooks.md); an endpoint gets all by default. */
export const WEBHOOK_EVENT_TYPES = [
  'api_key.created',
  'api_key.enabled',
  'api_key.disabled',
  'api_key.deleted',
  'api_key.rolled',
  'api_key.rate_limit_changed',
  'api_key.rate_limited',
  'api_key.allowed_ips_changed',
  'api_key.quota_changed',
  'api_key.quota_low',
  'api_key.quota_exhausted',
  'api_key.expiring',
  'api_key.expired',
  'api_key.unused',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An event a change caused, as a service emits it inside a unit of work; the outbox writes it in
 * the same transaction. `data` gets `tenant: {id, slug}` added when it is recorded.
 */
export type EventRecord = {
  tenantId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** The delivered `timestamp`; the moment of recording when absent. */
  at?: Date;
};
