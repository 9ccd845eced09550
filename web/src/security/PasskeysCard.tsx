import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { passkeyErrorText } from '../session/passkey-ceremonies.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatInstant } from '../shared/dates.ts';
import { useFeedback } from '../shared/Feedback.tsx';
import { useAddPasskey, useRemovePasskey, type PasskeyView } from './security-api.ts';

type Props = { passkeys: PasskeyView[]; onRecoveryCodes: (codes: string[]) => void };

/** Passkeys: each named, with when it was added and last used; add one, remove one. */
export function PasskeysCard({ passkeys, onRecoveryCodes }: Props) {
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const notify = useFeedback();
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const chosen = name.trim() || 'Passkey';
    add.mutate(chosen, {
      onSuccess: ({ recovery_codes }) => {
        setName('');
        notify('success', 'Passkey added', `“${chosen}” signs you in, with or without your password.`);
        if (recovery_codes) onRecoveryCodes(recovery_codes);
      },
    });
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="passkeys-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconFingerprint aria-hidden size={20} />
          <Title order={3} size="h4" id="passkeys-title">
            Passkeys
          </Title>
          <Badge color={passkeys.length ? 'teal' : 'gray'} variant="light" tt="none">
            {passkeys.length === 0 ? 'None' : `${passkeys.length} added`}
          </Badge>
        </Group>
        <Text size="sm" c="dark.4">
          A fingerprint, face or security key that only works on this site: phishing cannot steal it. It signs you in on
          its own, or as the step after your password.
        </Text>
        {passkeys.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            aria-label="Your passkeys"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {passkeys.map((passkey) => (
              <Group component="li" key={passkey.id} justify="space-between" gap="sm" wrap="nowrap">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} truncate title={passkey.name}>
                    {passkey.name}
                  </Text>
                  <Text size="xs" c="dark.3">
                    Added {formatInstant(passkey.created_at)} ·{' '}
                    {passkey.last_used_at ? `last used ${formatInstant(passkey.last_used_at)}` : 'not used yet'}
                  </Text>
                </div>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => setRemoving(passkey)}
                  aria-label={`Remove passkey ${passkey.name}`}
                >
                  Remove
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <form onSubmit={onAdd} noValidate>
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Name of the new passkey"
              placeholder="e.g. Work laptop"
              value={name}
              maxLength={100}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" loading={add.isPending} leftSection={<IconFingerprint size={16} aria-hidden />}>
              Add a passkey
            </Button>
          </Group>
        </form>
        {add.error !== null && (
          <Alert color="red" variant="light" title="The passkey was not added" role="alert">
            {passkeyErrorText(add.error)}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        target={removing}
        action={remove}
        title="Remove this passkey?"
        failureTitle="The passkey was not removed"
        confirmLabel="Remove passkey"
        warning="Your other sessions end."
        done={(gone) => ['Passkey removed', `“${gone.name}” no longer signs you in.`]}
        onClose={() => setRemoving(null)}
      >
        {(target) => (
          <>
            <strong>{target.name}</strong> will no longer sign you in. Remove it from the device too.
          </>
        )}
      </ConfirmDialog>
    </Paper>
  );
}
