import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconAlertTriangle, IconFingerprint } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { isApiError, request, setReauthenticator } from '../shared/api-client.ts';
import { passkeyAssertion, passkeyErrorText } from './passkey-ceremonies.ts';
import { adoptSession, hasSecondFactor, useSession, type SecondFactorProof, type Session } from './session-api.ts';
import { signInErrorText } from './sign-in-errors.ts';
import { SsoReauth } from '../sso/SsoReauth.tsx';

type Body = { password: string } | SecondFactorProof;
const STOP_ESCAPE = 'data-mantine-stop-propagation';
type Waiting = { promise: Promise<boolean>; resolve: (done: boolean) => void };

/**
 * Holds the re-authentication dialog for the whole back office: the api client calls it on 403
 * reauthentication_required and, once the person has confirmed it is them, repeats the request
 * they made. Several refused requests at once share one dialog.
 */
export function ReauthProvider({ children }: { children: ReactNode }) {
  const waiting = useRef<Waiting | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setReauthenticator(() => {
      if (!waiting.current) {
        let resolve: (done: boolean) => void = () => {};
        const promise = new Promise<boolean>((settle) => (resolve = settle));
        waiting.current = { promise, resolve };
        setOpen(true);
      }
      return waiting.current.promise;
    });
    return () => setReauthenticator(undefined);
  }, []);
  const finish = (done: boolean) => {
    waiting.current?.resolve(done);
    waiting.current = null;
    setOpen(false);
  };
  return (
    <>
      {children}
      <ReauthDialog opened={open} onDone={() => finish(true)} onCancel={() => finish(false)} />
    </>
  );
}

type DialogProps = { opened: boolean; onDone: () => void; onCancel: () => void };

/** Password, or the second factor for a person who has one (the password would undo what it adds). */
function ReauthDialog({ opened, onDone, onCancel }: DialogProps) {
  const session = useSession().data;
  return (
    <Modal opened={opened && !!session} onClose={onCancel} title="Confirm it is you" centered zIndex={400}>
      {session?.signed_in_with === 'sso' ? (
        <SsoReauth tenantSlug={session.user.tenant.slug} onCancel={onCancel} />
      ) : (
        session && <ReauthForm session={session} onDone={onDone} onCancel={onCancel} />
      )}
    </Modal>
  );
}

function ReauthForm({ session, onDone, onCancel }: { session: Session } & Omit<DialogProps, 'opened'>) {
  const queryClient = useQueryClient();
  const methods = session.second_factor_methods;
  const withFactor = hasSecondFactor(session);
  const [mode, setMode] = useState<'password' | 'totp' | 'recovery_code' | 'passkey'>(
    !withFactor ? 'password' : methods.includes('totp') ? 'totp' : 'passkey',
  );
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const confirm = useMutation({
    mutationFn: (body: Body) => request<Session>('POST', '/session/reauthenticate', body),
    gcTime: 0,
    onSuccess: (renewed) => {
      adoptSession(queryClient, renewed);
      onDone();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!value.trim() || mode === 'passkey') return;
    setPasskeyError(null);
    const body: Body = mode === 'password' ? { password: value } : { method: mode, code: value.trim() };
    confirm.mutate(body, { onError: () => setValue('') });
  };
  const onPasskey = async () => {
    confirm.reset();
    setPasskeyError(null);
    try {
      const response = await passkeyAssertion('reauthenticate');
      confirm.mutate({ method: 'passkey', response });
    } catch (error) {
      setPasskeyError(error);
    }
  };
  const switchTo = (next: typeof mode) => {
    setMode(next);
    setValue('');
    setTried(false);
    confirm.reset();
  };
  // Every open Mantine dialog closes on Escape, the one this dialog covers too (a half-filled
  // form lost). Marked elements are left alone by them; this dialog handles its own Escape.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dialog = box.current?.closest('[role="dialog"]');
    dialog?.querySelectorAll('input, button, a').forEach((element) => element.setAttribute(STOP_ESCAPE, 'true'));
  });
  useWindowEvent('keydown', (event) => {
    const dialog = box.current?.closest('[role="dialog"]');
    if (event.key === 'Escape' && event.target instanceof Node && dialog?.contains(event.target)) onCancel();
  });
  const failure = confirm.error ?? passkeyError;
  const label = { password: 'Your password', totp: 'Code from your authenticator app', recovery_code: 'Recovery code' };

  return (
    <Stack gap="md" ref={box}>
      <Text>This change needs a recent sign-in. Confirm it is you and it goes ahead.</Text>
      {failure !== null && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Not confirmed" role="alert">
          {isApiError(failure) ? signInErrorText(failure).text : passkeyErrorText(failure)}
        </Alert>
      )}
      {mode !== 'passkey' && (
        <form onSubmit={onSubmit} noValidate id="reauth-form">
          {mode === 'password' ? (
            <PasswordInput
              label={label.password}
              autoComplete="current-password"
              data-autofocus
              required
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={tried && !value ? 'Enter your password.' : undefined}
              visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
            />
          ) : (
            <TextInput
              key={mode}
              label={label[mode]}
              autoComplete="one-time-code"
              inputMode={mode === 'totp' ? 'numeric' : 'text'}
              data-autofocus
              required
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={tried && !value.trim() ? 'Enter the code.' : undefined}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 2 } }}
            />
          )}
        </form>
      )}
      {methods.includes('passkey') && (
        <Button
          variant={mode === 'passkey' ? 'filled' : 'default'}
          leftSection={<IconFingerprint size={18} aria-hidden />}
          onClick={() => void onPasskey()}
          loading={confirm.isPending && mode === 'passkey'}
          data-autofocus={mode === 'passkey' || undefined}
        >
          Use your passkey
        </Button>
      )}
      <Group gap="md">
        {methods.includes('totp') && mode !== 'totp' && (
          <Anchor component="button" type="button" size="sm" onClick={() => switchTo('totp')}>
            Use the authenticator app
          </Anchor>
        )}
        {methods.includes('recovery_code') && mode !== 'recovery_code' && (
          <Anchor component="button" type="button" size="sm" onClick={() => switchTo('recovery_code')}>
            Use a recovery code
          </Anchor>
        )}
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        {mode !== 'passkey' && (
          <Button type="submit" form="reauth-form" loading={confirm.isPending}>
            Confirm
          </Button>
        )}
      </Group>
    </Stack>
  );
}
