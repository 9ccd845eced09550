import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconInfoCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { useNow } from '../shared/use-now.ts';
import { CreateKeyDialog } from './CreateKeyDialog.tsx';
import { DeleteKeyDialog } from './DeleteKeyDialog.tsx';
import { KeyList } from './KeyList.tsx';
import { useKeys, useSetKeyEnabled, type ApiKey, type CreatedKey, type KeyAuthority } from './keys-api.ts';
import { SecretDialog } from './SecretDialog.tsx';

/** The tenant's key authority, in one line above the list. */
const AUTHORITY_NOTE: Record<KeyAuthority, string> = {
  creator:
    'Keys act as the user who created them: they may do what that user’s roles allow right now, and stop working if that user is deleted.',
  system: 'Keys act as a system user with every API permission, whatever becomes of the user who created them.',
};

/** The key list with its create, secret and delete dialogs. */
export function KeysPanel() {
  const keys = useKeys();
  const notify = useFeedback();
  const now = useNow();
  const narrow = useMediaQuery('(max-width: 62em)', false, { getInitialValueInEffect: false });
  const [creating, setCreating] = useState(false);
  // The one place the new secret lives, until the confirmation dialog closes.
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  const onToggleFailed = useCallback(
    (error: unknown, { key, enabled }: { key: ApiKey; enabled: boolean }) =>
      notify(
        'error',
        `“${key.name}” was not ${enabled ? 'enabled' : 'disabled'}`,
        isApiError(error) ? error.detail : 'Something went wrong. The key is unchanged.',
      ),
    [notify],
  );
  const toggle = useSetKeyEnabled(onToggleFailed);
  const onToggle = (key: ApiKey, enabled: boolean) => toggle.mutate({ key, enabled });

  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      Create API key
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          {keys.data && (
            <Text size="sm" c="dark.4" data-testid="authority-note">
              <IconInfoCircle size={16} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
              {AUTHORITY_NOTE[keys.data.authority]}
            </Text>
          )}
        </div>
        {keys.data && keys.data.data.length > 0 && createButton}
      </Group>
      {keys.isPending && (
        <Stack gap="xs" role="status" aria-label="Loading API keys">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} height={56} />
          ))}
        </Stack>
      )}
      {keys.isError && <ProblemAlert error={keys.error} title="The API keys could not be loaded" onRetry={() => void keys.refetch()} />}
      {keys.data && keys.data.data.length === 0 && (
        <Paper withBorder p="xl">
          <Stack align="center" gap="sm" ta="center">
            <IconKey size={40} aria-hidden color="var(--mantine-color-indigo-7)" />
            <Title order={2} size="h3">
              No API keys yet
            </Title>
            <Text maw={520} c="dark.4">
              An API key lets a script, a service or an AI agent read this organisation’s flight data through the API and the MCP
              server. You see each key once, when you create it.
            </Text>
            {createButton}
          </Stack>
        </Paper>
      )}
      {keys.data && keys.data.data.length > 0 && (
        <KeyList keys={keys.data.data} authority={keys.data.authority} now={now} narrow={narrow} onToggle={onToggle} onDelete={setDeleting} />
      )}
      <CreateKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(result) => {
          setCreating(false);
          setCreated(result);
        }}
      />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
      <DeleteKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
