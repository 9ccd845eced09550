import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from './shared/api-client.ts';
import { FeedbackProvider } from './shared/Feedback.tsx';
import { goToSignIn } from './session/next.ts';
import { ReauthProvider } from './session/ReauthDialog.tsx';
import { Routes } from './Routes.tsx';
import { prefetchKeysOnKeysPage } from './keys/keys-api.ts';
import { cssVariablesResolver, theme } from './shared/theme.ts';

export function App() {
  const [queryClient] = useState(() => {
    const client = new QueryClient({
      queryCache: new QueryCache({ onError: toSignInIfSignedOut }),
      mutationCache: new MutationCache({ onError: toSignInIfSignedOut }),
      defaultOptions: {
        // Only an unreachable or failing server is worth asking again; a 4xx answer stands.
        queries: {
          retry: (count, error) => count < 2 && isApiError(error) && (error.status === 0 || error.status >= 500),
        },
      },
    });
    prefetchKeysOnKeysPage(client, window.location.pathname);
    return client;
  });
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <FeedbackProvider>
          <ReauthProvider>
            <Routes />
          </ReauthProvider>
        </FeedbackProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

/** A session that lapsed while the page was open: back to sign-in (saying why), then back here. */
function toSignInIfSignedOut(error: unknown): void {
  // The sign-in page handles its own refusals (a lapsed second-factor step among them).
  if (window.location.pathname.startsWith('/backoffice/login')) return;
  const here = window.location.pathname + window.location.search;
  if (isApiError(error, 'session_expired')) goToSignIn(here, 'session_expired');
  else if (isApiError(error, 'not_authenticated')) goToSignIn(here);
}
