import { z } from 'zod';

/** One connected app: a grant a person approved (`GET /backoffice/api/oauth-grants`). */
export const oauthGrantSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  app_name: z.string(),
  resource: z.string(),
  user: z.object({ id: z.string(), email: z.string() }),
  approved_at: z.string(),
  /** The last token issued for it (code exchanged or refresh token used); null before the first. */
  last_used_at: z.string().nullable(),
});
export type OAuthGrantView = z.infer<typeof oauthGrantSchema>;

export const oauthGrantListSchema = z.object({ data: z.array(oauthGrantSchema) });

/** `?all=1`: every grant of the tenant (needs `api_keys:manage`); otherwise the person's own. */
export const oauthGrantQuerySchema = z.object({ all: z.enum(['0', '1']).optional() });

export const oauthGrantParamsSchema = z.object({ id: z.string().min(1).max(128) });
