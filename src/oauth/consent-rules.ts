import type { UserActor } from '../shared/actor.ts';
import type { OAuthAppsSetting } from '../shared/oauth-apps.ts';
import { isLoopback } from './redirect-rules.ts';

export type ConsentWarning = 'loopback_only' | 'redirect_host_differs';

/** Who may approve an app for themselves under the tenant's `oauth_apps` setting. */
export function mayApprove(actor: UserActor, setting: OAuthAppsSetting): boolean {
  if (actor.signIn.enrolmentOnly || setting === 'off') return false;
  return setting === 'everyone' || actor.permissions.includes('api_keys:manage');
}

/**
 * What the consent page warns about: a code sent only to this machine (any local program could
 * be listening there), or sent to a host other than the one whose document names the app (the
 * document proves who publishes the app, not who receives the code).
 */
export function consentWarnings(clientId: string, redirectUri: string, byDocument: boolean): ConsentWarning[] {
  const redirect = new URL(redirectUri);
  const warnings: ConsentWarning[] = [];
  if (redirect.protocol === 'http:' && isLoopback(redirect.hostname)) warnings.push('loopback_only');
  else if (byDocument && new URL(clientId).host !== redirect.host) warnings.push('redirect_host_differs');
  return warnings;
}

/** The resource's name as the consent page says it. */
export function resourceName(resource: string, urls: { mcp: string }): 'MCP server' | 'API' {
  return resource === urls.mcp ? 'MCP server' : 'API';
}
