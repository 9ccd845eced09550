import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthServer } from '../../oauth/oauth-server.ts';
import { ISSUER_PATH } from '../../oauth/oauth-urls.ts';

type Mountable = IncomingMessage & { originalUrl?: string };

/** The provider's own discovery document, below its mount path. */
const DISCOVERY = '/.well-known/openid-configuration';

/**
 * The authorization server's endpoints: oidc-provider's own handler, mounted under the issuer's
 * path in this server (no second HTTP stack), plus the RFC 8414 metadata URL with the issuer's
 * path inserted. The provider reads each body itself and writes its own responses and errors
 * (`{error, error_description}`, RFC 6749), so this scope parses nothing and never reaches the
 * problem-details error handler.
 */
export function oauthRoutes(app: FastifyInstance, { oauth }: { oauth: OAuthServer }): void {
  const handle = oauth.provider.callback();
  const issuer = new URL(oauth.urls.issuer);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const handOver = (request: FastifyRequest, reply: FastifyReply, originalUrl: string, url: string) => {
    reply.hijack();
    const raw = request.raw as Mountable;
    // The provider writes every URL from these (provider.proxy): the issuer's origin, never the
    // Host a client sent; and the client address airkey derived from TRUSTED_PROXIES.
    raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
    raw.headers['x-forwarded-host'] = issuer.host;
    raw.headers['x-forwarded-for'] = request.client;
    raw.originalUrl = originalUrl;
    raw.url = url;
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    handle(raw, reply.raw);
  };

  const mounted = (request: FastifyRequest, reply: FastifyReply) => {
    const original = request.raw.url ?? ISSUER_PATH;
    handOver(request, reply, original, original.slice(ISSUER_PATH.length) || '/');
  };
  app.all(ISSUER_PATH, mounted);
  app.all(`${ISSUER_PATH}/*`, mounted);

  // RFC 8414 §3.1: the well-known name first, then the issuer's path. The same document as OpenID
  // discovery (`{issuer}/.well-known/openid-configuration`), so `issuer` matches either URL's issuer.
  app.get(`/.well-known/oauth-authorization-server${ISSUER_PATH}`, (request, reply) =>
    handOver(request, reply, `${ISSUER_PATH}${DISCOVERY}`, DISCOVERY),
  );
}
