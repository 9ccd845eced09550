import { Alert, Button, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconClock, IconFingerprint, IconKey } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import type { SecondFactorStep as Step } from '@contracts';
import { isApiError } from '../shared/api-client.ts';
import { isSecondFactorStep, usePasskeySignIn, useSession, useSignIn } from './session-api.ts';
import { safeNext } from './next.ts';
import { navigate, useLocation } from '../shared/router.ts';
import { passkeyErrorText } from './passkey-ceremonies.ts';
import { SecondFactorStep } from './SecondFactorStep.tsx';
import { signInErrorText } from './sign-in-errors.ts';
import { SsoReasonAlert, SsoSignIn } from '../sso/SsoSignIn.tsx';

/**
 * E-mail and password, then the second factor when the person has one; or a passkey alone.
 * Afterwards back to `?next=` when it is a back-office path.
 */
export function LoginPage() {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const next = safeNext(params.get('next'), window.location.origin);
  const expired = params.get('reason') === 'session_expired';
  const session = useSession();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const [step, setStep] = useState<Step | null>(null);

  // Already signed in (e.g. the back button): straight on.
  useEffect(() => {
    if (session.data) navigate(next, { replace: true });
  }, [session.data, next]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!email.trim() || !password) return;
    passkey.reset();
    signIn.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (result) => {
          setPassword('');
          if (isSecondFactorStep(result)) setStep(result);
          else navigate(next, { replace: true });
        },
      },
    );
  };
  const onPasskey = () => {
    signIn.reset();
    passkey.mutate(undefined, { onSuccess: () => navigate(next, { replace: true }) });
  };
  const startOver = () => {
    setStep(null);
    signIn.reset();
  };
  const error = signIn.error;
  const wrongCredentials = isApiError(error, 'invalid_credentials');

  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack gap="md">
          <Stack gap={4} align="center">
            <IconKey aria-hidden size={32} color="var(--mantine-color-indigo-7)" />
            <Title order={1} size="h2">
              {step ? 'Confirm it is you' : 'Sign in to airkey'}
            </Title>
            <Text size="sm" c="dimmed" ta="center">
              {step ? 'Your password was right. One more step.' : 'Back office for API keys and users'}
            </Text>
          </Stack>
          {step ? (
            <SecondFactorStep
              methods={step.methods}
              onSignedIn={() => navigate(next, { replace: true })}
              onStartOver={startOver}
            />
          ) : (
            <>
              <SsoReasonAlert />
              {expired && !error && !passkey.error && (
                <Alert
                  role="status"
                  color="blue"
                  variant="light"
                  icon={<IconClock aria-hidden />}
                  title="Your session ended"
                >
                  You were signed out after a while without activity, or after a long day. Sign in again to carry on
                  where you were.
                </Alert>
              )}
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
              {passkey.error && (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlertTriangle aria-hidden />}
                  title="Passkey sign-in failed"
                  role="alert"
                >
                  {isApiError(passkey.error) ? signInErrorText(passkey.error).text : passkeyErrorText(passkey.error)}
                </Alert>
              )}
              <form onSubmit={onSubmit} noValidate>
                <Stack gap="md">
                  <TextInput
                    label="E-mail"
                    type="email"
                    autoComplete="username webauthn"
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
              <Divider label="or" labelPosition="center" />
              <Button
                variant="default"
                fullWidth
                leftSection={<IconFingerprint size={18} aria-hidden />}
                onClick={onPasskey}
                loading={passkey.isPending}
              >
                Sign in with a passkey
              </Button>
              <SsoSignIn next={next} />
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
