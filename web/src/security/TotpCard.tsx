import { Anchor, Badge, Button, Code, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconDeviceMobile } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { FailureAlert, useFeedback } from '../shared/Feedback.tsx';
import { isApiError } from '../shared/api-client.ts';
import { useBeginTotp, useConfirmTotp, useRemoveTotp } from './security-api.ts';

type Props = { enrolled: boolean; onRecoveryCodes: (codes: string[]) => void };

/** The authenticator app: set up (secret, then a code from it), or remove. */
export function TotpCard({ enrolled, onRecoveryCodes }: Props) {
  const begin = useBeginTotp();
  const remove = useRemoveTotp();
  const [removing, setRemoving] = useState<true | null>(null);
  const enrolment = begin.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="totp-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            <IconDeviceMobile aria-hidden size={20} />
            <Title order={3} size="h4" id="totp-title">
              Authenticator app
            </Title>
            {enrolled ? (
              <Badge color="teal" variant="light" tt="none">
                On
              </Badge>
            ) : (
              <Badge color="gray" variant="light" tt="none">
                Not set up
              </Badge>
            )}
          </Group>
          {enrolled ? (
            <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)}>
              Remove
            </Button>
          ) : (
            !enrolment && (
              <Button size="xs" onClick={() => begin.mutate(undefined)} loading={begin.isPending}>
                Set up authenticator app
              </Button>
            )
          )}
        </Group>
        <Text size="sm" c="dark.4">
          A six-digit code from an app such as 1Password, Google Authenticator or Microsoft Authenticator, asked after
          your password.
        </Text>
        {begin.error !== null && <FailureAlert title="The setup could not start" error={begin.error} />}
        {enrolment && !enrolled && (
          <TotpEnrolment
            enrolment={enrolment}
            onDone={(codes) => {
              begin.reset();
              if (codes) onRecoveryCodes(codes);
            }}
            onCancel={() => begin.reset()}
          />
        )}
      </Stack>
      <ConfirmDialog
        target={removing}
        action={{ ...remove, mutate: (_target, options) => remove.mutate(undefined, options) }}
        title="Remove the authenticator app?"
        failureTitle="The authenticator app was not removed"
        confirmLabel="Remove"
        warning="Your other sessions end."
        done={() => ['Authenticator app removed', 'Its codes no longer sign you in.']}
        onClose={() => setRemoving(null)}
      >
        {() =>
          'Codes from your app will no longer be accepted. Without another second factor, your recovery codes stop working too.'
        }
      </ConfirmDialog>
    </Paper>
  );
}

type EnrolmentProps = {
  enrolment: { secret: string; otpauth_uri: string };
  onDone: (codes: string[] | null) => void;
  onCancel: () => void;
};

/** Step 1: the app learns the secret (its link, or typed in); step 2: a code from it proves it did. */
function TotpEnrolment({ enrolment, onDone, onCancel }: EnrolmentProps) {
  const confirm = useConfirmTotp();
  const notify = useFeedback();
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const grouped = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!code.trim()) return;
    confirm.mutate(code.replace(/\s/g, ''), {
      onSuccess: ({ recovery_codes }) => {
        notify('success', 'Authenticator app added', 'Sign-in now asks for a code from it.');
        onDone(recovery_codes);
      },
    });
  };
  const wrongCode = isApiError(confirm.error) && confirm.error.status === 400;
  return (
    <Stack gap="sm" p="sm" bg="gray.0" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
      <Text size="sm" fw={600}>
        1. Add airkey to your authenticator app
      </Text>
      <Text size="sm">
        On this device,{' '}
        <Anchor href={enrolment.otpauth_uri} size="sm">
          open the setup link in your app
        </Anchor>
        , or type this setup key into the app (time-based, 6 digits, 30 seconds):
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Setup key
        </Text>
        <Group gap="xs">
          <Code fz="md" style={{ wordBreak: 'break-word' }}>
            {grouped}
          </Code>
          <CopyButton value={enrolment.secret}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant="default"
                onClick={copy}
                leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              >
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <Text size="xs" c="dark.3" style={{ wordBreak: 'break-all' }}>
        Setup link: {enrolment.otpauth_uri}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="2. Enter the code the app shows"
            autoComplete="one-time-code"
            inputMode="numeric"
            maw={240}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={
              (tried && !code.trim() && 'Enter the code.') ||
              (wrongCode && 'That code is not right. Check the app and try the code it shows now.') ||
              undefined
            }
          />
          {confirm.error !== null && !wrongCode && (
            <FailureAlert title="The authenticator app was not added" error={confirm.error} />
          )}
          <Group gap="sm">
            <Button type="submit" loading={confirm.isPending}>
              Confirm code
            </Button>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
