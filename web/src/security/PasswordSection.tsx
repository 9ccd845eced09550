import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MAX, PASSWORD_MIN } from '@contracts';
import { FailureAlert, useFeedback } from '../shared/Feedback.tsx';
import { isApiError } from '../shared/api-client.ts';
import { useChangePassword } from './security-api.ts';

/** One's own password: the current one, and a new one the server's rule accepts. */
export function PasswordSection() {
  const change = useChangePassword();
  const notify = useFeedback();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [tried, setTried] = useState(false);
  const length = [...next].length;
  const problems = {
    current: !current ? 'Enter your current password.' : undefined,
    next:
      length < PASSWORD_MIN || length > PASSWORD_MAX ? `Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` : undefined,
    again: again !== next ? 'The two new passwords differ.' : undefined,
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problems.current || problems.next || problems.again) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          setAgain('');
          setTried(false);
          notify('success', 'Password changed', 'Your other sessions have ended.');
        },
      },
    );
  };
  const error = change.error;
  const wrongCurrent = isApiError(error, 'invalid_credentials');
  const serverSays = isApiError(error) ? error.fieldError('new_password') : undefined;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="password-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm" maw={420}>
          <Title order={2} size="h3" id="password-title">
            Password
          </Title>
          <Text size="sm" c="dark.4">
            {PASSWORD_MIN} to {PASSWORD_MAX} characters; a long phrase is easiest. Common passwords and your e-mail’s
            name are refused. Your other sessions end when it changes.
          </Text>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
            error={(tried && problems.current) || (wrongCurrent && 'This is not your current password.') || undefined}
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the current password' }}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.currentTarget.value)}
            error={(tried && problems.next) || serverSays || undefined}
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the new password' }}
          />
          <PasswordInput
            label="New password again"
            autoComplete="new-password"
            value={again}
            onChange={(event) => setAgain(event.currentTarget.value)}
            error={(tried && problems.again) || undefined}
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the repeated new password' }}
          />
          {error !== null && !wrongCurrent && !serverSays && (
            <FailureAlert title="The password was not changed" error={error} />
          )}
          <div>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
