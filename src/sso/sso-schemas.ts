import { z } from 'zod';
import { SSO_REFUSALS, type SsoRefusalCode } from './sso-refusals.ts';

/** "Test the connection": an issuer not saved yet, or nothing (the saved provider). */
export const ssoTestBodySchema = z.strictObject({ issuer: z.string().trim().min(1).max(500).optional() }).nullish();

const refusalCodes = Object.keys(SSO_REFUSALS) as [SsoRefusalCode, ...SsoRefusalCode[]];

export const ssoTestResultSchema = z.discriminatedUnion('reachable', [
  z.object({
    reachable: z.literal(true),
    discovery: z.object({
      issuer: z.string(),
      authorization_endpoint: z.string().nullable(),
      token_endpoint: z.string().nullable(),
      userinfo_endpoint: z.string().nullable(),
      jwks_uri: z.string().nullable(),
      client_authentication: z.enum(['client_secret_basic', 'client_secret_post']),
      scopes_supported: z.array(z.string()).nullable(),
    }),
  }),
  z.object({ reachable: z.literal(false), reason: z.enum(refusalCodes), detail: z.string() }),
]);
export type SsoTestResult = z.infer<typeof ssoTestResultSchema>;
