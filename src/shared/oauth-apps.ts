/**
 * Who in a tenant may approve an OAuth app (docs/oauth.md): nobody, those who may create keys
 * (`api_keys:manage`), or every signed-in person. A sign-in setting of the tenant.
 */
export const OAUTH_APPS_SETTINGS = ['off', 'key_managers', 'everyone'] as const;
export type OAuthAppsSetting = (typeof OAUTH_APPS_SETTINGS)[number];
