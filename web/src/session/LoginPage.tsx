import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { useSession, useSignIn } from './session-api.ts';
import { safeNext } from './next.ts';
import { navigate, useLocation } from '../shared/router.ts';
import { signInErrorText } from './sign-in-errors.ts';
import { SsoReasonAlert, SsoSignIn } from '../sso/SsoSignIn.tsx';

/** E-mail and password; afterwards back to `?next=` when it is a back-office path. */
export function LoginPage() {
  const { search } = useLocation();
  const next = safeNext(new URLSearchParams(search).get('next'), window.location.origin);
  const session = useSession();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);

  // Already signed in (e.g. the back button): straight on.
  useEffect(() => {
    if (session.data) navigate(next, { replace: true });
  }, [session.data, next]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!email.trim() || !password) return;
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setPassword('');
          navigate(next, { replace: true });
        },
      },
    );
  };
  const error = signIn.error;
  const wrongCredentials = isApiError(error, 'invalid_credentials');

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Stack gap={4} align="center">
              <IconKey aria-hidden size={32} color="var(--mantine-color-indigo-7)" />
              <Title order={1} size="h2">
                Sign in to airkey
              </Title>
              <Text size="sm" c="dimmed" ta="center">
                Back office for API keys and users
              </Text>
            </Stack>
            <SsoReasonAlert />
            {error && (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle aria-hidden />}
                title={signInErrorText(error).title}
                role="alert"
              >
                {signInErrorText(error).text}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={(tried && !email.trim() && 'Enter your e-mail address.') || wrongCredentials || undefined}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={(tried && !password && 'Enter your password.') || wrongCredentials || undefined}
              visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
            />
            <Button type="submit" loading={signIn.isPending} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
        <SsoSignIn next={next} />
      </Paper>
    </Center>
  );
}
