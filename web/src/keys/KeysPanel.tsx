import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconInfoCircle, IconKey, IconPlus } from '@tabler/icons-react';
import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { LoadingRows, ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { useNow } from '../shared/use-now.ts';
import { CreateKeyDialog } from './CreateKeyDialog.tsx';
import { DeleteKeyDialog } from './DeleteKeyDialog.tsx';
import { formatInstant } from '../shared/dates.ts';
import { KeyBrowser } from './KeyBrowser.tsx';
import { retiresInText } from './key-times.ts';
import { RollKeyDialog } from './RollKeyDialog.tsx';
import type { RolledKey } from './roll-api.ts';
import { KeyDrawer, TenantUsage } from './lazy-charts.tsx';
import { useKeys, useSetKeyEnabled, type ApiKey, type CreatedKey, type KeyAuthority } from './keys-api.ts';
import { SecretDialog } from './SecretDialog.tsx';
import { useKeyPolicy } from './key-policy-api.ts';
import { KeyPolicyContext } from './key-policy-context.ts';
import { outsidePolicyReasons } from './key-policy-text.ts';
import { KeyPolicySection } from './KeyPolicySection.tsx';

/** The tenant's key authority, in one line above the list. */
const AUTHORITY_NOTE: Record<KeyAuthority, string> = {
  creator:
    'Keys act as the user who created them: they may do what that user’s roles allow right now, and stop working if that user is deleted.',
  system: 'Keys act as a system user with every API permission, whatever becomes of the user who created them.',
};

/** The tenant's usage, the key list, and the create, roll, secret, delete dialogs and the key's own view. */
export function KeysPanel() {
  const keys = useKeys();
  // This page is for api_keys:manage (System Administrators), as is the policy.
  const policy = useKeyPolicy();
  const outside = useMemo(
    () => keys.data?.data.filter((key) => outsidePolicyReasons(policy.data, key).length > 0).length ?? 0,
    [keys.data, policy.data],
  );
  const notify = useFeedback();
  // Now is at least as fresh as the list: a row read against a clock tick older than its data
  // would say "Retires in 24 h" just after a 24-hour roll.
  const tick = useNow();
  const now = useMemo(() => new Date(Math.max(tick.getTime(), keys.dataUpdatedAt)), [tick, keys.dataUpdatedAt]);
  const narrow = useMediaQuery('(max-width: 62em)', false, { getInitialValueInEffect: false });
  const [creating, setCreating] = useState(false);
  // The one place a new secret lives, until the confirmation dialog closes.
  const [created, setCreated] = useState<{ key: CreatedKey; note?: ReactNode } | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  // The open key by id, so its view follows the list (a toggle, a roll) while it is open.
  const [viewingId, setViewingId] = useState<string | null>(null);
  const viewing = keys.data?.data.find((key) => key.id === viewingId) ?? null;
  // The drawer's code loads on first use, then stays mounted so closing it returns focus properly.
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (viewingId !== null && !drawerUsed) setDrawerUsed(true);

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
  const onRoll = (key: ApiKey) => {
    setViewingId(null);
    setRolling(key);
  };
  const onRolled = (rolled: RolledKey) => {
    setRolling(null);
    setCreated({ key: rolled, note: <RollNote rolled={rolled} now={new Date()} /> });
  };

  const createButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
      Create API key
    </Button>
  );
  const hasKeys = keys.data !== undefined && keys.data.data.length > 0;

  return (
    <KeyPolicyContext.Provider value={policy.data}>
      <Stack gap="md">
        <KeyPolicySection
          policy={policy.data}
          error={policy.error}
          onRetry={() => void policy.refetch()}
          outside={outside}
        />
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: '1 1 320px' }}>
            {keys.data && (
              <Text size="sm" c="dark.4" data-testid="authority-note">
                <IconInfoCircle size={16} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
                {AUTHORITY_NOTE[keys.data.authority]}
              </Text>
            )}
          </div>
          {hasKeys && createButton}
        </Group>
        {keys.isPending && <LoadingRows label="Loading API keys" rows={3} height={56} />}
        {keys.isError && (
          <ProblemAlert
            error={keys.error}
            title="The API keys could not be loaded"
            onRetry={() => void keys.refetch()}
          />
        )}
        {keys.data && !hasKeys && <NoKeysYet createButton={createButton} />}
        {keys.data && hasKeys && (
          <>
            <Suspense fallback={<Skeleton height={320} />}>
              <TenantUsage onOpenKey={setViewingId} />
            </Suspense>
            <KeyBrowser
              keys={keys.data.data}
              authority={keys.data.authority}
              now={now}
              narrow={narrow}
              onToggle={onToggle}
              onDelete={setDeleting}
              onRoll={onRoll}
              onOpen={(key) => setViewingId(key.id)}
            />
          </>
        )}
        <CreateKeyDialog
          opened={creating}
          onClose={() => setCreating(false)}
          onCreated={(result) => {
            setCreating(false);
            setCreated({ key: result });
          }}
        />
        <RollKeyDialog apiKey={rolling} onClose={() => setRolling(null)} onRolled={onRolled} />
        <SecretDialog created={created?.key ?? null} note={created?.note} onClose={() => setCreated(null)} />
        <DeleteKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />
        {drawerUsed && (
          <Suspense fallback={null}>
            <KeyDrawer apiKey={viewing} now={now} onClose={() => setViewingId(null)} onRoll={onRoll} />
          </Suspense>
        )}
      </Stack>
    </KeyPolicyContext.Provider>
  );
}

function NoKeysYet({ createButton }: { createButton: ReactNode }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="sm" ta="center">
        <IconKey size={40} aria-hidden color="var(--mantine-color-indigo-7)" />
        <Title order={2} size="h3">
          No API keys yet
        </Title>
        <Text maw={520} c="dark.4">
          An API key lets a script, a service or an AI agent read this organisation’s flight data through the API and
          the MCP server. You see each key once, when you create it.
        </Text>
        {createButton}
      </Stack>
    </Paper>
  );
}

/** What became of the old key, in the one-time dialog after a roll. */
function RollNote({ rolled, now }: { rolled: RolledKey; now: Date }) {
  const previous = rolled.previous;
  if (!previous?.retires_at) {
    return <Text size="sm">This key replaces the old one, which has stopped working.</Text>;
  }
  return (
    <Text size="sm" data-testid="roll-note">
      This key replaces <strong>{previous.hint}</strong>, which keeps working until {formatInstant(previous.retires_at)}{' '}
      ({retiresInText(previous.retires_at, now).replace('Retires in', 'in')}). Replace it everywhere before then.
    </Text>
  );
}
