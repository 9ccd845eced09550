import { z } from 'zod';

/** What the consent page shows (`GET /backoffice/api/oauth/interactions/{uid}`). */
export const consentViewSchema = z.object({
  app: z.object({ client_id: z.string(), name: z.string(), by_document: z.boolean() }),
  redirect_uri: z.string(),
  redirect_host: z.string(),
  /** loopback_only: the code goes to this machine; redirect_host_differs: not the document's host. */
  warnings: z.array(z.enum(['loopback_only', 'redirect_host_differs'])),
  organisation: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  resource: z.string(),
  resource_name: z.enum(['MCP server', 'API']),
  /** False under the tenant's `oauth_apps`: the page offers only to go back to the app. */
  may_approve: z.boolean(),
});
export type ConsentView = z.infer<typeof consentViewSchema>;

/** Where the browser goes after an answer: the provider, which redirects to the app. */
export const consentAnswerSchema = z.object({ redirect_to: z.string() });
