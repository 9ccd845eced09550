import type { OAuthUrls } from './oauth-urls.ts';
import { RESOURCE_SCOPE } from './provider.ts';

/** The two protected resources, by the path under the public URL each is served at. */
export type ResourcePath = '/mcp' | '/api/v1';

export type ResourceMetadata = {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
};

/** Where a resource's RFC 9728 document is: the well-known name, then the resource's path (§3.1). */
export function resourceMetadataUrl(urls: OAuthUrls, path: ResourcePath): string {
  const resource = new URL(path === '/mcp' ? urls.mcp : urls.api);
  return `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`;
}

/**
 * A resource's RFC 9728 document: the one authorization server, the one scope every token gets
 * (what a token may do comes from its person's roles), tokens in the Authorization header only.
 */
export function resourceMetadata(urls: OAuthUrls, path: ResourcePath): ResourceMetadata {
  return {
    resource: path === '/mcp' ? urls.mcp : urls.api,
    authorization_servers: [urls.issuer],
    scopes_supported: [RESOURCE_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: path === '/mcp' ? 'airkey MCP server' : 'airkey API',
  };
}
