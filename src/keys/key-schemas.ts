import { z } from 'zod';
import { KEY_AUTHORITIES } from '../shared/actor.ts';
import { PERMISSIONS } from '../shared/roles.ts';
import { tenantRefSchema } from '../shared/tenant-ref.ts';

/**
 * The API-key contract as data: these schemas validate requests, serialise responses, describe
 * the OpenAPI document and MCP tools, and give the back office its types (z.infer).
 */
/** Why a key is disabled: by a person, with its creator's account, or reported leaked. */
export const DISABLED_REASONS = ['disabled_by_user', 'creator_deleted', 'leaked'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string().describe('ask_… plus the last four characters of the secret'),
  created_at: z.string(),
  created_by: z.object({ id: z.string(), email: z.string() }).nullable(),
  expires_at: z.string().nullable().describe('YYYY-MM-DD; the key stops at 00:00:00 UTC of that date'),
  expires_at_time: z.string().nullable(),
  enabled: z.boolean(),
  status: z.enum(['enabled', 'disabled', 'expired']),
  disabled_reason: z.enum(DISABLED_REASONS).nullable().describe('null while enabled'),
  last_used_at: z.string().nullable(),
  retires_at: z.string().nullable().describe('A rolled key stops working at this instant'),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

export const keyListSchema = z.object({ data: z.array(apiKeySchema), authority: z.enum(KEY_AUTHORITIES) });
export type KeyList = z.infer<typeof keyListSchema>;

export const createKeyBodySchema = z.strictObject({
  name: z.string().describe('1–100 characters, trimmed, no control characters'),
  expires_at: z.string().nullable().optional().describe('YYYY-MM-DD, later than today (UTC); the key stops at 00:00:00 UTC of that date'),
});
export type CreateKeyInput = z.infer<typeof createKeyBodySchema>;

/** The one response that carries a secret. */
export const createdKeySchema = z.object({ api_key: apiKeySchema, secret: z.string() });
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const updateKeyBodySchema = z.strictObject({ enabled: z.boolean() });

/** Who a request made with a key acts as, and what it may do (`GET /api/v1/whoami`). */
export const principalSchema = z.object({
  tenant: tenantRefSchema,
  key: z.object({ id: z.string(), name: z.string(), hint: z.string(), expires_at: z.string().nullable() }),
  acts_as: z.union([
    z.object({ type: z.literal('user'), id: z.string(), email: z.string() }),
    z.object({ type: z.literal('system') }),
  ]),
  permissions: z.array(z.enum(PERMISSIONS)).readonly(),
});
export type Principal = z.infer<typeof principalSchema>;
