import { z } from 'zod';
import { KEY_AUTHORITIES } from '../shared/actor.ts';
import { QUOTA_PERIODS, RATE_LIMIT_WINDOWS } from '../shared/limit-terms.ts';
import { ipEntryProblem, MAX_ALLOWED_IPS } from '../shared/ip-entries.ts';
import { principalSchema } from '../shared/principal.ts';

/**
 * The API-key contract as data: these schemas validate requests, serialise responses, describe
 * the OpenAPI document and MCP tools, and give the back office its types (z.infer).
 */
/** Why a key is disabled: by a person, with its creator's account, reported leaked, or unused (key policy). */
export const DISABLED_REASONS = ['disabled_by_user', 'creator_deleted', 'leaked', 'unused'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/**
 * 1–1,000,000,000 whole requests. Past the maximum, that is the one error (its limit written as a
 * person reads it): zod's own safe-integer check would add a second, "<=9007199254740991".
 */
function requestsSchema(description: string) {
  return z
    .number()
    .max(1_000_000_000, { abort: true, message: 'At most 1,000,000,000.' })
    .min(1, { message: 'At least 1.' })
    .int({ message: 'A whole number.' })
    .describe(description);
}

/** At most `requests` accepted requests per fixed, UTC-aligned `window` (docs/keys.md (Rate limits)). */
export const rateLimitSchema = z
  .strictObject({
    requests: requestsSchema('Accepted requests per window, 1–1,000,000,000'),
    window: z.enum(RATE_LIMIT_WINDOWS).describe('1s, 1m, 1h or 1d, aligned to the UTC epoch'),
  })
  .describe('A rate limit; null: none');

/** At most `requests` accepted requests per UTC day, UTC month or the key's whole life (docs/keys.md (Quotas)). */
export const quotaSchema = z
  .strictObject({
    requests: requestsSchema('Accepted requests per period, 1–1,000,000,000'),
    period: z.enum(QUOTA_PERIODS).describe('day or month (UTC calendar), or total: credits that never refill'),
  })
  .describe('A quota; null: none');

/** A key's quota as it stands: what was used of the current period and when it starts over. */
export const quotaViewSchema = quotaSchema
  .extend({
    used: z.number().int().describe('Accepted in the current period, as of at most USAGE_FLUSH_MS ago'),
    resets_at: z.string().nullable().describe('When the period ends and use starts over; null for total'),
  })
  .describe('A quota and its use; null: none');

/**
 * Where a key may be used from (docs/keys.md (IP allowlists)): 1–50 addresses or CIDR ranges. Each
 * bad entry is named `allowed_ips.N`; KeyService canonicalises what passes (and checks again, for
 * adapters that skip this schema).
 */
export const allowedIpsSchema = z
  .array(z.string().max(100))
  .min(1, 'Give at least one address or range, or null for any address.')
  .max(MAX_ALLOWED_IPS, `At most ${MAX_ALLOWED_IPS} addresses or ranges.`)
  .superRefine((entries, context) => {
    entries.forEach((entry, index) => {
      const problem = ipEntryProblem(entry);
      if (problem) context.addIssue({ code: 'custom', path: [index], message: problem });
    });
  })
  .describe('IPv4 or IPv6 addresses or CIDR ranges, 1–50; null: any address');

/** What a key has left, as this instance knows it (`GET /api/v1/whoami`). */
export const keyLimitsSchema = z.object({
  rate_limit: rateLimitSchema
    .extend({
      remaining: z.number().int().describe('Requests left in this window after this one'),
      resets_at: z.string().describe('When the window ends'),
    })
    .nullable(),
  quota: quotaSchema
    .extend({
      remaining: z.number().int().describe('Requests left in this period after this one'),
      resets_at: z.string().nullable().describe('When the period ends; null for total'),
    })
    .nullable(),
});
export type KeyLimitsView = z.infer<typeof keyLimitsSchema>;

/** `GET /api/v1/whoami`: who the key acts as, what it may do, and what it has left. */
export const whoamiSchema = principalSchema.extend({ limits: keyLimitsSchema });
export type Whoami = z.infer<typeof whoamiSchema>;

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
  rate_limit: rateLimitSchema.nullable(),
  allowed_ips: z.array(z.string()).nullable().describe('Canonical addresses and ranges; null: any address'),
  last_refused_ip: z.string().nullable().describe('The last client address refused for being outside allowed_ips'),
  last_refused_at: z.string().nullable(),
  quota: quotaViewSchema.nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

export const keyListSchema = z.object({ data: z.array(apiKeySchema), authority: z.enum(KEY_AUTHORITIES) });
export type KeyList = z.infer<typeof keyListSchema>;

export const createKeyBodySchema = z.strictObject({
  name: z.string().describe('1–100 characters, trimmed, no control characters'),
  expires_at: z
    .string()
    .nullable()
    .optional()
    .describe('YYYY-MM-DD, later than today (UTC); the key stops at 00:00:00 UTC of that date'),
  rate_limit: rateLimitSchema.nullable().optional(),
  allowed_ips: allowedIpsSchema.nullable().optional(),
  quota: quotaSchema.nullable().optional(),
});
export type CreateKeyInput = z.infer<typeof createKeyBodySchema>;

/** The one response that carries a secret. */
export const createdKeySchema = z.object({ api_key: apiKeySchema, secret: z.string() });
export type CreatedKey = z.infer<typeof createdKeySchema>;

/** At least one field (KeyService.update says so otherwise). */
export const updateKeyBodySchema = z.strictObject({
  enabled: z.boolean().optional(),
  rate_limit: rateLimitSchema.nullable().optional(),
  allowed_ips: allowedIpsSchema.nullable().optional(),
  quota: quotaSchema.nullable().optional(),
});
export type UpdateKeyInput = z.infer<typeof updateKeyBodySchema>;

/** How long a rolled key keeps working beside its successor. */
export const ROLL_OVERLAPS = ['none', '1h', '24h', '7d'] as const;
export type RollOverlap = (typeof ROLL_OVERLAPS)[number];

export const rollKeyBodySchema = z.strictObject({
  overlap: z.enum(ROLL_OVERLAPS).describe('How long the old key keeps working; none = refused at once'),
  expires_at: z
    .string()
    .optional()
    .describe("YYYY-MM-DD for the new key, no later than the old key's; default: the old key's expires_at"),
});
export type RollKeyInput = z.infer<typeof rollKeyBodySchema>;

/** A roll's answer: the new key and its secret (shown once), and the old key while it retires. */
export const rolledKeySchema = z.object({
  api_key: apiKeySchema,
  secret: z.string(),
  previous: apiKeySchema.nullable(),
});
export type RolledKey = z.infer<typeof rolledKeySchema>;

/** `POST /api/v1/leaked-keys`: whatever someone found that may be a key. */
export const leakReportSchema = z.strictObject({
  keys: z
    .array(z.string().max(200))
    .min(1)
    .max(100)
    .describe('1–100 strings that may be API keys, each at most 200 characters'),
});
export type LeakReport = z.infer<typeof leakReportSchema>;

/** The same answer whatever the items were: a report reveals nothing. */
export const leakReceiptSchema = z.object({ received: z.number().int().describe('How many items the report held') });
export type LeakReceipt = z.infer<typeof leakReceiptSchema>;
