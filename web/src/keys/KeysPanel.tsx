import { Button, Group, Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { useKeys, useSetKeyEnabled } from './keys-api.ts';
import type { ApiKey, CreatedKey } from '../shared/api-types.ts';
import { useFeedback } from '../shared/Feedback.tsx';
import { ProblemAlert } from '../shared/ProblemAlert.tsx';
import { useNow } from '../shared/use-now.ts';
import { AuthorityNote } from './AuthorityNote.tsx';
import { CreateKeyDialog } from './CreateKeyDialog.tsx';
import { DeleteKeyDialog } from './DeleteKeyDialog.tsx';
import { EmptyKeys } from './EmptyKeys.tsx';
import { KeyCards } from './KeyCards.tsx';
import { KeysTable } from './KeysTable.tsx';
import { SecretDialog } from './SecretDialog.tsx';

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
        <div style={{ flex: '1 1 320px' }}>{keys.data && <AuthorityNote authority={keys.data.authority} />}</div>
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
      {keys.data && keys.data.data.length === 0 && <EmptyKeys onCreate={() => setCreating(true)} />}
      {keys.data &&
        keys.data.data.length > 0 &&
        (narrow ? (
          <KeyCards keys={keys.data.data} authority={keys.data.authority} now={now} onToggle={onToggle} onDelete={setDeleting} />
        ) : (
          <KeysTable keys={keys.data.data} authority={keys.data.authority} now={now} onToggle={onToggle} onDelete={setDeleting} />
        ))}
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
