import { z } from 'zod';
import { pageSize } from '../shared/page-size.ts';
import { WEBHOOK_EVENT_TYPES } from '../shared/event-types.ts';

/**
 * The webhook endpoints' contract as data (docs/webhooks.md): these schemas validate requests,
 * serialise responses and give the back office its types.
 */
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_DISABLED_REASONS = ['disabled_by_user', 'gone'] as const;

const eventTypesSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `Use event types from: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }))
  .min(1, { message: 'Choose at least one event type.' })
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe('Event types this endpoint receives');
// The URL's own rules (scheme, credentials, address) live in url-rules.ts, so every adapter gets them.
const urlSchema = z.string().describe(`An absolute https: URL, at most ${WEBHOOK_URL_MAX} characters`);
const descriptionSchema = z
  .string()
  .max(WEBHOOK_DESCRIPTION_MAX, { message: `At most ${WEBHOOK_DESCRIPTION_MAX} characters.` });

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS).nullable().describe('null while enabled; gone after a 410'),
  created_at: z.string(),
});
export type WebhookView = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ data: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

export const createWebhookBodySchema = z.strictObject({
  url: urlSchema,
  events: eventTypesSchema.optional().describe('Default: every event type'),
  description: descriptionSchema.nullable().optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventTypesSchema.optional(),
    description: descriptionSchema.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Send at least one of url, events, description, enabled.',
  });
export type UpdateWebhookInput = z.infer<typeof updateWebhookBodySchema>;

/** Creation: the endpoint and its signing secret, shown this once. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** Rotation: the new secret, shown this once; the old one still signs for 24 h. */
export const rotatedSecretSchema = z.object({ secret: z.string() });
export type RotatedSecret = z.infer<typeof rotatedSecretSchema>;

export const testDeliverySchema = z.object({ delivery_id: z.string() });
export type TestDelivery = z.infer<typeof testDeliverySchema>;

export const deliveryAttemptSchema = z.object({
  at: z.string(),
  status_code: z.number().int().nullable().describe('null when no answer came'),
  error: z.string().nullable().describe('timeout, connection_refused, blocked_address, redirect, ...'),
  duration_ms: z.number(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const deliverySchema = z.object({
  id: z.string(),
  event_type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  attempts: z.array(deliveryAttemptSchema),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryPageSchema = z.object({ data: z.array(deliverySchema), next_cursor: z.string().nullable() });
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

export const deliveryQuerySchema = z.object({ limit: pageSize(100), cursor: z.string().max(512).optional() });

export const deliveryParamsSchema = z.object({ id: z.string(), delivery_id: z.string() });
