import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconFingerprint } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { passkeyAssertion, passkeyErrorText } from './passkey-ceremonies.ts';
import { useSecondFactorSignIn, type SecondFactorMethod } from './session-api.ts';
import { signInErrorText } from './sign-in-errors.ts';

type Props = { methods: SecondFactorMethod[]; onSignedIn: () => void; onStartOver: () => void };

/**
 * The second-factor step after a right password: a code from the authenticator app, the passkey,
 * or a recovery code, whichever the person has. A wrong code keeps the step open (the server
 * keeps the pending sign-in for 5 minutes); a lapsed step starts over at the password.
 */
export function SecondFactorStep({ methods, onSignedIn, onStartOver }: Props) {
  const hasTotp = methods.includes('totp');
  // A person with a passkey only is offered it first; the recovery code is one click away.
  const [mode, setMode] = useState<'totp' | 'recovery_code' | 'none'>(hasTotp ? 'totp' : 'none');
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const verify = useSecondFactorSignIn();
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const [usingPasskey, setUsingPasskey] = useState(false);
  const showCodeForm = mode !== 'none';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!code.trim() || mode === 'none') return;
    setPasskeyError(null);
    verify.mutate({ method: mode, code: code.trim() }, { onSuccess: onSignedIn, onError: () => setCode('') });
  };
  const onPasskey = async () => {
    verify.reset();
    setPasskeyError(null);
    setUsingPasskey(true);
    try {
      const response = await passkeyAssertion('second_factor');
      verify.mutate({ method: 'passkey', response }, { onSuccess: onSignedIn });
    } catch (error) {
      setPasskeyError(error);
    } finally {
      setUsingPasskey(false);
    }
  };
  const switchTo = (next: 'totp' | 'recovery_code') => {
    setMode(next);
    setCode('');
    setTried(false);
    verify.reset();
  };
  const lapsed = isApiError(verify.error, 'not_authenticated') || isApiError(passkeyError, 'not_authenticated');
  const failure = verify.error ?? passkeyError;

  return (
    <Stack gap="md">
      {failure !== null && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          title={failureTitle(failure, lapsed)}
          role="alert"
        >
          {lapsed ? (
            <>
              The step after the password lasts 5 minutes.{' '}
              <Anchor component="button" type="button" onClick={onStartOver} inherit>
                Sign in again
              </Anchor>
            </>
          ) : isApiError(failure) ? (
            signInErrorText(failure).text
          ) : (
            passkeyErrorText(failure)
          )}
        </Alert>
      )}
      {showCodeForm && (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput
              key={mode}
              label={mode === 'totp' ? 'Code from your authenticator app' : 'Recovery code'}
              description={
                mode === 'totp'
                  ? 'The 6 digits your app shows for airkey now.'
                  : 'One of the codes you saved when you added your first second factor. Each works once.'
              }
              autoComplete="one-time-code"
              inputMode={mode === 'totp' ? 'numeric' : 'text'}
              autoFocus
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={tried && !code.trim() ? 'Enter the code.' : undefined}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 2 } }}
            />
            <Button type="submit" loading={verify.isPending && !usingPasskey} fullWidth>
              Verify
            </Button>
          </Stack>
        </form>
      )}
      {methods.includes('passkey') && (
        <Button
          variant={showCodeForm ? 'default' : 'filled'}
          fullWidth
          leftSection={<IconFingerprint size={18} aria-hidden />}
          onClick={() => void onPasskey()}
          loading={usingPasskey}
          autoFocus={!showCodeForm}
        >
          Use a passkey
        </Button>
      )}
      <Group justify="space-between" gap="xs">
        {methods.includes('recovery_code') && mode !== 'recovery_code' && (
          <Anchor component="button" type="button" size="sm" onClick={() => switchTo('recovery_code')}>
            Use a recovery code
          </Anchor>
        )}
        {mode === 'recovery_code' && hasTotp && (
          <Anchor component="button" type="button" size="sm" onClick={() => switchTo('totp')}>
            Use the authenticator app
          </Anchor>
        )}
        <Anchor component="button" type="button" size="sm" onClick={onStartOver}>
          Start over
        </Anchor>
      </Group>
      <Text size="xs" c="dark.3">
        Lost your phone and your codes? A System Administrator can reset your second factors.
      </Text>
    </Stack>
  );
}

function failureTitle(error: unknown, lapsed: boolean): string {
  if (lapsed) return 'The sign-in took too long';
  if (isApiError(error)) return signInErrorText(error).title;
  return 'The passkey was not used';
}
