import type { FastifyInstance } from 'fastify';
import type { OAuthServer } from '../../oauth/oauth-server.ts';
import { resourceMetadata, type ResourcePath } from '../../oauth/resource-metadata.ts';

/**
 * RFC 9728 protected resource metadata for `/mcp` and `/api/v1` (docs/oauth.md): how a host that
 * got a 401 finds the authorization server. Public, cacheable, the same on every instance.
 */
export function protectedResourceRoutes(app: FastifyInstance, { oauth }: { oauth: OAuthServer }): void {
  for (const path of ['/mcp', '/api/v1'] as const satisfies ResourcePath[]) {
    const body = JSON.stringify(resourceMetadata(oauth.urls, path));
    app.get(`/.well-known/oauth-protected-resource${path}`, { schema: { hide: true } }, (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').type('application/json; charset=utf-8').send(body);
    });
  }
}
