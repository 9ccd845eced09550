import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app/services.ts';
import type { UserActor } from '../../shared/actor.ts';
import { InvalidRequestError, NotAuthenticatedError } from '../../shared/errors.ts';
import { DEFAULT_NEXT, safeNext } from '../../sso/safe-next.ts';
import { SsoRefusal } from '../../sso/sso-refusals.ts';
import type { SsoStartRequest } from '../../sso/sso-service.ts';
import { problemResponses } from '../schemas.ts';
import { sessionCookieName, setSessionCookie } from '../session-cookies.ts';
import { endHeldSession } from './backoffice-sign-in.ts';
import { clientContext } from '../session-auth.ts';

/** Binds a flow to the browser that started it; sent back on the provider's top-level redirect (Lax). */
const FLOW_COOKIE = 'airkey_sso';

const startQuerySchema = z.strictObject({
  org: z.string().trim().min(1).max(100).optional(),
  email: z.string().trim().min(3).max(320).optional(),
  next: z.string().max(2000).optional(),
  reauth: z.enum(['1', 'true']).optional(),
});
const tenantParamsSchema = z.strictObject({ tenant: z.string().min(1).max(100) });
const callbackQuerySchema = z.record(z.string(), z.string().max(4000));

/**
 * Single sign-on's browser side (docs/sso.md): start sends the browser to the tenant's provider,
 * the callback comes back from it. Both are navigations, so a refusal is a redirect to the sign-in
 * page with `?reason=`, never a JSON error; only malformed input is a problem document.
 */
export function backofficeSsoRoutes(app: FastifyInstance, services: Pick<Services, 'signIn' | 'config'>) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { sso, sessions, signIns } = services.signIn;
  const { config } = services;
  // A redirect that carries a flow or a session cookie is never cached.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('Cache-Control', 'no-store');
    done();
  });

  const begin = async (request: FastifyRequest, reply: FastifyReply, wanted: SsoStartRequest, reauth: boolean) => {
    // A flow row and the provider's discovery per call, for whoever asks: throttled per client.
    await signIns.admitPreSessionWork(clientContext(request));
    const actor = reauth ? await liveActor(request) : undefined;
    if (reauth && !actor) throw new NotAuthenticatedError();
    try {
      const browserToken = request.cookies[flowCookie(request)];
      const started = await sso.start(wanted, callbackUri(request), browserToken, clientContext(request), actor);
      reply.setCookie(flowCookie(request), started.browserToken, {
        path: request.https ? '/' : '/backoffice',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.https,
        expires: started.expiresAt,
      });
      return reply.redirect(started.location);
    } catch (error) {
      if (error instanceof SsoRefusal) return reply.redirect(loginPage(error.reason, wanted.next));
      throw error;
    }
  };

  api.get('/backoffice/api/sso/start', {
    schema: { querystring: startQuerySchema, response: problemResponses(400, 401) },
    handler: async (request, reply) => {
      const { org, email, next, reauth } = request.query;
      if (!reauth && !org && !email) throw InvalidRequestError.field('org', 'Give the organisation or your e-mail.');
      return begin(request, reply, { org, email, next }, reauth !== undefined);
    },
  });

  api.get('/backoffice/sso/:tenant/start', {
    schema: { params: tenantParamsSchema, querystring: startQuerySchema.pick({ next: true, reauth: true }) },
    handler: async (request, reply) => {
      const { next, reauth } = request.query;
      return begin(request, reply, { org: request.params.tenant, next }, reauth !== undefined);
    },
  });

  api.get('/backoffice/sso/callback', {
    schema: { querystring: callbackQuerySchema },
    handler: async (request, reply) => {
      const params = new URLSearchParams(request.query);
      const result = await sso.callback(
        params,
        request.cookies[flowCookie(request)],
        clientContext(request),
        callbackUri(request),
        await liveActor(request),
      );
      if (result.kind === 'refused') return reply.redirect(loginPage(result.reason, result.next ?? undefined));
      // One browser, one session: the one it held ends, unless re-authentication kept that very token.
      if (request.cookies[sessionCookieName(request)] !== result.session.token) await endHeldSession(request, sessions);
      setSessionCookie(request, reply, result.session.token, result.session.expiresAt);
      // Checked again on the way out: a flow may have been stored under an older, looser rule.
      return reply.redirect(safeNext(result.next) ?? DEFAULT_NEXT);
    },
  });

  async function liveActor(request: FastifyRequest): Promise<UserActor | undefined> {
    const token = request.cookies[sessionCookieName(request)];
    const lookup = token ? await sessions.resolve(token) : undefined;
    return lookup?.state === 'live' ? lookup.session.actor : undefined;
  }

  /** `{PUBLIC_URL or the request's origin}/backoffice/sso/callback`, as registered at the provider. */
  function callbackUri(request: FastifyRequest): string {
    const origin = config.publicOrigin ?? `${request.https ? 'https' : 'http'}://${request.headers.host ?? ''}`;
    return `${origin}/backoffice/sso/callback`;
  }
}

function flowCookie(request: FastifyRequest): string {
  return request.https ? `__Host-${FLOW_COOKIE}` : FLOW_COOKIE;
}

/** The sign-in page with the reason; `next` only when it is a back-office page (safeNext). */
function loginPage(reason: string, next: string | undefined): string {
  const query = new URLSearchParams({ reason });
  const page = safeNext(next);
  if (page) query.set('next', page);
  return `/backoffice/login?${query.toString()}`;
}
