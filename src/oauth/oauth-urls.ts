/** The issuer's path under the server's public URL; the provider is mounted there. */
export const ISSUER_PATH = '/oauth';

/** Where the provider sends a person to sign in and approve: a back-office page. */
export const CONSENT_PAGE_PATH = '/backoffice/oauth';

/** The consent page's API: `{CONSENT_API_PATH}/{uid}`, its `/approve` and `/deny`. */
export const CONSENT_API_PATH = '/backoffice/api/oauth/interactions';

/** The issuer and the two protected resources, all under one public URL (docs/oauth.md). */
export type OAuthUrls = { issuer: string; mcp: string; api: string };

export function oauthUrls(publicUrl: string): OAuthUrls {
  return { issuer: `${publicUrl}${ISSUER_PATH}`, mcp: `${publicUrl}/mcp`, api: `${publicUrl}/api/v1` };
}
