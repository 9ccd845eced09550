import { z } from 'zod';
import { byOutcome } from './usage-outcomes.ts';

/**
 * The usage contract (docs/api.md) as data: the window a chart asks for and the counts it gets back.
 * `ok` counts requests the key check accepted; `rejected` those refused for a known key of the
 * tenant (disabled, expired, retired, permission denied); `rate_limited` those refused over the
 * key's rate limit (not counted ok); `ip_refused` those of a valid key refused for the client's
 * address (docs/keys.md (IP allowlists)); `quota_exceeded` those refused over the key's quota (not
 * counted ok either). Unknown keys are counted nowhere.
 */
export const USAGE_WINDOWS = ['24h', '7d', '30d'] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];

export const usageQuerySchema = z.object({
  window: z.enum(USAGE_WINDOWS).default('24h').describe('24h: 24 hourly buckets; 7d, 30d: daily buckets (UTC)'),
});
export type UsageQuery = z.infer<typeof usageQuerySchema>;

const countsShape = byOutcome(() => z.number().int());

export const usageBucketSchema = z.object({
  start: z.string().describe('ISO 8601 UTC start of the bucket'),
  ...countsShape,
});
export type UsageBucket = z.infer<typeof usageBucketSchema>;

export const usageSchema = z.object({
  window: z.enum(USAGE_WINDOWS),
  bucket: z.enum(['hour', 'day']),
  series: z.array(usageBucketSchema).describe('Oldest first, empty buckets included'),
  total: z.object(countsShape),
});
export type Usage = z.infer<typeof usageSchema>;

export const topKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  ok: z.number().int(),
  rejected: z.number().int(),
});
export type TopKey = z.infer<typeof topKeySchema>;

/** The whole tenant's usage (deleted keys included) and its busiest keys. */
export const tenantUsageSchema = usageSchema.extend({
  top_keys: z.array(topKeySchema).max(10).describe('At most 10 keys of the window, by ok'),
});
export type TenantUsage = z.infer<typeof tenantUsageSchema>;
