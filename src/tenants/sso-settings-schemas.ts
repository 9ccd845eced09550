import { z } from 'zod';
import { ROLES } from '../shared/roles.ts';

const roles = z.array(z.enum(ROLES)).max(ROLES.length);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/, 'A domain such as example.com.');

/** A tenant's identity provider as read: the client secret never leaves (docs/sso.md). */
export const ssoSettingsSchema = z.object({
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.literal(true),
  allowed_domains: z.array(z.string()),
  default_roles: roles,
  role_claim: z.string().nullable(),
  role_map: z.record(z.string(), roles),
  create_users: z.boolean(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/**
 * The identity provider as written. `client_secret` is needed the first time; later it may be left
 * out to keep the one stored. At least one allowed domain: an e-mail outside them is refused.
 */
export const ssoSettingsInputSchema = z.strictObject({
  issuer: z.string().trim().min(1).max(500),
  client_id: z.string().trim().min(1).max(500),
  client_secret: z.string().min(1).max(2000).optional(),
  allowed_domains: z.array(domain).min(1).max(50),
  default_roles: roles.default([]),
  role_claim: z.string().trim().min(1).max(200).nullable().default(null),
  role_map: z
    .record(z.string().min(1).max(200), roles)
    .refine((map) => Object.keys(map).length <= 100, 'At most 100 claim values.')
    .default({}),
  create_users: z.boolean().default(false),
});
export type SsoSettingsInput = z.infer<typeof ssoSettingsInputSchema>;
