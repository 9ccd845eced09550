import { z } from 'zod';

/** HTTP-level schemas shared by the routes: problem bodies and back-office payloads. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string().describe('Stable machine-readable error code'),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, problemSchema.describe(`Problem details (${status})`)]));

export const tenantRefSchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });

export const whoamiSchema = z.object({
  tenant: tenantRefSchema,
  key: z.object({ id: z.string(), name: z.string(), hint: z.string(), expires_at: z.string().nullable() }),
  acts_as: z.union([
    z.object({ type: z.literal('user'), id: z.string(), email: z.string() }),
    z.object({ type: z.literal('system') }),
  ]),
  permissions: z.array(z.string()).readonly(),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  created_at: z.string(),
  created_by: z.object({ id: z.string(), email: z.string() }).nullable(),
  expires_at: z.string().nullable(),
  expires_at_time: z.string().nullable(),
  enabled: z.boolean(),
  status: z.enum(['enabled', 'disabled', 'expired']),
  disabled_reason: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

export const createKeyBodySchema = z.strictObject({
  name: z.string().describe('1–100 characters, trimmed, no control characters'),
  expires_at: z.string().nullable().optional().describe('YYYY-MM-DD, later than today (UTC); the key stops at 00:00:00 UTC of that date'),
});

export const updateKeyBodySchema = z.strictObject({ enabled: z.boolean() });

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  tenant: tenantRefSchema,
});

export const signInBodySchema = z.strictObject({ email: z.string().max(320), password: z.string().max(1000) });

export const createUserBodySchema = z.strictObject({
  email: z.string(),
  name: z.string(),
  password: z.string(),
  roles: z.array(z.string()),
});

export const updateUserBodySchema = z.strictObject({
  name: z.string().optional(),
  password: z.string().optional(),
  roles: z.array(z.string()).optional(),
});

export const idParamsSchema = z.object({ id: z.string() });

