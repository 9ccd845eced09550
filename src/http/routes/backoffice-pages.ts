import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Services } from '../../app/services.ts';
import { BACKOFFICE_PAGES } from '../../shared/pages.ts';
import type { Permission } from '../../shared/roles.ts';
import { sessionCookieName } from '../session-cookies.ts';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Pages of the single-page back office: the sign-in page is public, the others need a session. */
const PAGES: Record<string, Permission | null | 'public'> = {
  '/backoffice/login': 'public',
  ...BACKOFFICE_PAGES,
  // An app's authorization request, handed over by the OAuth provider (docs/oauth.md).
  '/backoffice/oauth/:uid': null,
};

/**
 * Serves the built back office. Signed-out visitors of a protected page are redirected to sign-in
 * with `?next=`; signed-in users without the permission get the page with status 403, which it
 * renders as "you need role X".
 */
export async function backofficePages(app: FastifyInstance, services: Pick<Services, 'signIn'>): Promise<void> {
  const indexPath = `${WEB_DIST}/index.html`;
  const built = existsSync(indexPath);
  let indexHtml: string | undefined;
  const page = () => (indexHtml ??= readFileSync(indexPath, 'utf8'));

  if (built) {
    await app.register(fastifyStatic, {
      root: `${WEB_DIST}/assets`,
      prefix: '/backoffice/assets/',
      immutable: true,
      maxAge: '365d',
    });
  }

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/backoffice/settings/api-keys'));
  // Browsers ask for it on every origin; an empty answer beats a 404 in every console.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());
  app.get('/backoffice', async (_request, reply) => reply.redirect('/backoffice/settings/api-keys'));

  for (const [path, permission] of Object.entries(PAGES)) {
    app.get(path, async (request: FastifyRequest, reply: FastifyReply) => {
      let status = 200;
      if (permission !== 'public') {
        const token = request.cookies[sessionCookieName(request)];
        const lookup = token ? await services.signIn.sessions.resolve(token) : undefined;
        if (lookup?.state !== 'live') {
          const reason = lookup?.state === 'ended' ? '&reason=session_expired' : '';
          return reply.redirect(`/backoffice/login?next=${encodeURIComponent(request.url)}${reason}`);
        }
        // An enrolment-only session gets every page: each shows the enrolment screen instead.
        const { actor, enrolment_required } = lookup.session;
        if (permission !== null && !enrolment_required && !actor.permissions.includes(permission)) status = 403;
      }
      if (!built) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The back office is not built yet: run `npm run build` (npm start does it for you).');
      }
      return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page());
    });
  }
}
