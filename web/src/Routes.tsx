import { useEffect, type ReactNode } from 'react';
import type { Permission } from '@contracts';
import { permissionsOfSession, useSession } from './session/session-api.ts';
import { CenteredLoader } from './shared/CenteredLoader.tsx';
import { ProblemAlert } from './shared/ProblemAlert.tsx';
import { Shell } from './shared/Shell.tsx';
import { navigate, useLocation } from './shared/router.ts';
import { signInUrl } from './session/next.ts';
import { ApiKeysPage } from './keys/ApiKeysPage.tsx';
import { ForbiddenPage } from './shared/ForbiddenPage.tsx';
import { LoginPage } from './session/LoginPage.tsx';
import { NotFoundPage } from './shared/NotFoundPage.tsx';
import { UsersPage } from './users/UsersPage.tsx';

type Page = { title: string; permission: Permission; roleNeeded: string; render: () => ReactNode };

/** The signed-in pages, the permission each needs (the server checks it too) and who holds it. */
export const PAGES: Record<string, Page> = {
  '/backoffice/settings/api-keys': {
    title: 'API keys',
    permission: 'api_keys:manage',
    roleNeeded: 'System Administrator',
    render: () => <ApiKeysPage />,
  },
  '/backoffice/users': {
    title: 'Users',
    permission: 'users:manage',
    roleNeeded: 'Administrator or System Administrator',
    render: () => <UsersPage />,
  },
};

export function Routes() {
  const { pathname, search } = useLocation();
  const session = useSession();
  const page = PAGES[pathname];
  const isLogin = pathname === '/backoffice/login';

  useEffect(() => {
    document.title = `${isLogin ? 'Sign in' : (page?.title ?? 'Not found')} · airkey`;
  }, [isLogin, page]);

  useEffect(() => {
    if (pathname === '/backoffice' || pathname === '/') navigate('/backoffice/settings/api-keys', { replace: true });
  }, [pathname]);

  // No session: a full navigation, so the server's sign-in page carries ?next= back here.
  const signedOut = !isLogin && session.isSuccess && session.data === null;
  useEffect(() => {
    if (signedOut) window.location.replace(signInUrl(pathname + search));
  }, [signedOut, pathname, search]);

  if (isLogin) return <LoginPage />;
  if (session.isPending || signedOut) return <CenteredLoader label="Loading the back office" />;
  if (session.isError) {
    return (
      <main style={{ maxWidth: 560, margin: '64px auto', padding: 16 }}>
        <ProblemAlert error={session.error} title="The back office could not load" onRetry={() => void session.refetch()} />
      </main>
    );
  }
  const signedIn = session.data!;
  const allowed = page ? permissionsOfSession(signedIn).includes(page.permission) : false;
  return (
    <Shell session={signedIn} current={pathname}>
      {!page ? <NotFoundPage /> : allowed ? page.render() : <ForbiddenPage title={page.title} roleNeeded={page.roleNeeded} />}
    </Shell>
  );
}
