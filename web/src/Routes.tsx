import { Center, Loader } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { BACKOFFICE_PAGES, type BackofficePath, type Permission } from '@contracts';
import { ApiKeysPage } from './keys/ApiKeysPage.tsx';
import { LoginPage } from './session/LoginPage.tsx';
import { ConsentPage } from './oauth/ConsentPage.tsx';
import { goToSignIn } from './session/next.ts';
import { permissionsOfSession, useSession } from './session/session-api.ts';
import { ProblemAlert } from './shared/Feedback.tsx';
import { isApiError } from './shared/api-client.ts';
import { navigate, useLocation } from './shared/router.ts';
import { Shell } from './shared/Shell.tsx';
import { ForbiddenPage, NotFoundPage } from './shared/StatusPages.tsx';
import { UsersPage } from './users/UsersPage.tsx';
import { SecurityPage } from './security/SecurityPage.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';

/** A page and the permission it needs; null: anyone signed in. */
type Page = { title: string; permission: Permission | null; roleNeeded: string; render: () => ReactNode };

const SECURITY = '/backoffice/settings/security';

/**
 * The signed-in pages, in navigation order, the permission each needs (the server checks it too)
 * and who holds it. The header links come from here as well.
 */
export const PAGES: Record<BackofficePath, Page> = {
  '/backoffice/settings/api-keys': {
    title: 'API keys',
    permission: BACKOFFICE_PAGES['/backoffice/settings/api-keys'],
    roleNeeded: 'System Administrator',
    render: () => <ApiKeysPage />,
  },
  '/backoffice/settings/webhooks': {
    title: 'Webhooks',
    permission: BACKOFFICE_PAGES['/backoffice/settings/webhooks'],
    roleNeeded: 'System Administrator',
    render: () => <WebhooksPage />,
  },
  '/backoffice/users': {
    title: 'Users',
    permission: BACKOFFICE_PAGES['/backoffice/users'],
    roleNeeded: 'Administrator or System Administrator',
    render: () => <UsersPage />,
  },
  [SECURITY]: {
    title: 'Security',
    permission: BACKOFFICE_PAGES[SECURITY],
    roleNeeded: 'any role',
    render: () => <SecurityPage />,
  },
};

export function Routes() {
  const { pathname, search } = useLocation();
  const session = useSession();
  const page = pathname in PAGES ? PAGES[pathname as BackofficePath] : undefined;
  const isLogin = pathname === '/backoffice/login';

  useEffect(() => {
    const title = pathname.startsWith('/backoffice/oauth/') ? 'Connect an app' : (page?.title ?? 'Not found');
    document.title = `${isLogin ? 'Sign in' : title} · airkey`;
  }, [isLogin, page, pathname]);

  useEffect(() => {
    if (pathname === '/backoffice' || pathname === '/') navigate('/backoffice/settings/api-keys', { replace: true });
  }, [pathname]);

  // No session: a full navigation, so the server's sign-in page carries ?next= back here.
  const signedOut = !isLogin && session.isSuccess && session.data === null;
  // A session that lapsed: App's error handler is taking the page to sign-in.
  const expired = isApiError(session.error, 'session_expired');
  // Enrolment only: the Security page is the one place open until a second factor is added.
  const enrolling = !isLogin && session.data?.enrolment_required === true;
  useEffect(() => {
    if (enrolling && pathname !== SECURITY) navigate(SECURITY, { replace: true });
  }, [enrolling, pathname]);
  useEffect(() => {
    if (signedOut) goToSignIn(pathname + search);
  }, [signedOut, pathname, search]);

  if (isLogin) return <LoginPage />;
  if (session.isPending || signedOut || expired || (enrolling && pathname !== SECURITY)) {
    return (
      <Center mih={240} role="status" aria-label="Loading the back office">
        <Loader aria-hidden />
      </Center>
    );
  }
  if (session.isError) {
    return (
      <main style={{ maxWidth: 560, margin: '64px auto', padding: 16 }}>
        <ProblemAlert
          error={session.error}
          title="The back office could not load"
          onRetry={() => void session.refetch()}
        />
      </main>
    );
  }
  // An app's authorization request, handed over by the OAuth provider: a page of its own.
  const consent = /^\/backoffice\/oauth\/([^/]+)$/.exec(pathname);
  if (consent) return <ConsentPage uid={consent[1]!} />;
  const signedIn = session.data!;
  const permissions = permissionsOfSession(signedIn);
  const mayOpen = (each: Page) => each.permission === null || permissions.includes(each.permission);
  const links = Object.entries(PAGES)
    .filter(([, each]) => mayOpen(each))
    .map(([href, each]) => ({ href, label: each.title }));
  const allowed = page ? mayOpen(page) : false;
  return (
    <Shell session={signedIn} current={pathname} links={links}>
      {!page ? (
        <NotFoundPage />
      ) : allowed ? (
        page.render()
      ) : (
        <ForbiddenPage title={page.title} roleNeeded={page.roleNeeded} />
      )}
    </Shell>
  );
}
