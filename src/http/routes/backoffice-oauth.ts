import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { consentAnswerSchema as redirect, consentViewSchema } from '../../oauth/consent-schemas.ts';
import { oauthGrantListSchema, oauthGrantParamsSchema, oauthGrantQuerySchema } from '../../oauth/grant-schemas.ts';
import { BINDING_COOKIE } from '../../oauth/interaction-binding.ts';
import type { OAuthServer } from '../../oauth/oauth-server.ts';
import { problemResponses } from '../schemas.ts';
import { signedInActor } from '../session-auth.ts';

const params = z.object({ uid: z.string().min(1).max(128) });

const bindingOf = (request: FastifyRequest) => request.cookies[BINDING_COOKIE];

/**
 * The consent page's endpoints (docs/oauth.md): what an app asks for, and the person's answer. The
 * answer returns where the browser goes next (the provider, which then redirects to the app).
 */
export function backofficeOAuthRoutes(app: FastifyInstance, { oauth }: { oauth: OAuthServer }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/oauth/interactions/:uid', {
    schema: { params, response: { 200: consentViewSchema, ...problemResponses(401, 403, 404) } },
    handler: async (request) => oauth.consent.details(signedInActor(request), request.params.uid, bindingOf(request)),
  });
  api.post('/oauth/interactions/:uid/approve', {
    schema: { params, response: { 200: redirect, ...problemResponses(401, 403, 404) } },
    handler: async (request) => oauth.consent.approve(signedInActor(request), request.params.uid, bindingOf(request)),
  });
  api.post('/oauth/interactions/:uid/deny', {
    schema: { params, response: { 200: redirect, ...problemResponses(401, 403, 404) } },
    handler: async (request) => oauth.consent.deny(signedInActor(request), request.params.uid, bindingOf(request)),
  });
}

/** Connected apps (docs/oauth.md): the grants people approved, and revoking one. */
export function backofficeOAuthGrantRoutes(app: FastifyInstance, { oauth }: { oauth: OAuthServer }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/oauth-grants', {
    schema: {
      querystring: oauthGrantQuerySchema,
      response: { 200: oauthGrantListSchema, ...problemResponses(401, 403) },
    },
    handler: async (request) => ({
      data: await oauth.grants.list(signedInActor(request), request.query.all === '1' ? 'all' : 'mine'),
    }),
  });
  api.delete('/oauth-grants/:id', {
    schema: { params: oauthGrantParamsSchema },
    handler: async (request, reply) => {
      await oauth.grants.revoke(signedInActor(request), request.params.id);
      return reply.code(204).send();
    },
  });
}
