import { Alert, Badge, Button, Code, Drawer, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { formatInstant } from '../shared/dates.ts';
import { disabledReasonText, statusText } from './key-state.ts';
import { expiresSoonText, isRetiring, retiresInText } from './key-times.ts';
import { Field, KeyCreated, KeyExpires, KeyLastUsed } from './KeyFields.tsx';
import { useResetQuota, type ApiKey } from './keys-api.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { quotaUsedText } from './quota-text.ts';
import { useKeyUsage, type UsageWindow } from './usage-api.ts';
import { UsagePanel } from './UsagePanel.tsx';
import { RateLimitEditor } from './RateLimitEditor.tsx';
import { QuotaEditor } from './QuotaEditor.tsx';
import { AllowedIpsEditor, LastRefused } from './AllowedIpsEditor.tsx';
import { KeyRequests } from '../requests/KeyRequests.tsx';

type Props = { apiKey: ApiKey | null; now: Date; onClose: () => void; onRoll: (key: ApiKey) => void };

/** One key's own view: its details, and its usage over 24 hours, 7 days or 30 days. */
export function KeyDrawer({ apiKey, now, onClose, onRoll }: Props) {
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  // The reset confirmation sits beside the drawer, which ignores Escape while it is open: Escape
  // then cancels the confirmation and leaves the key's view where it was.
  const [resetting, setResetting] = useState<ApiKey | null>(null);
  return (
    <>
      <Drawer
        opened={apiKey !== null}
        onClose={onClose}
        closeOnEscape={resetting === null}
        position="right"
        size={narrow ? '100%' : 'lg'}
        title={apiKey ? `API key “${apiKey.name}”` : 'API key'}
        closeButtonProps={{ 'aria-label': 'Close key details' }}
        styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)', wordBreak: 'break-word' } }}
      >
        {apiKey && <KeyDetails apiKey={apiKey} now={now} onRoll={onRoll} onReset={setResetting} />}
      </Drawer>
      <ConfirmDialog
        target={resetting}
        action={useResetQuota()}
        title="Reset the quota?"
        failureTitle="The quota was not reset"
        confirmLabel="Reset quota"
        done={(key) => ['Quota reset', `“${key.name}” can use its whole quota again.`]}
        onClose={() => setResetting(null)}
      >
        {(key) => (
          <>
            Set what <strong>“{key.name}”</strong> has used{key.quota && ` (${quotaUsedText(key.quota)})`} back to 0? It
            can then make every request of its quota again.
          </>
        )}
      </ConfirmDialog>
    </>
  );
}

type DetailsProps = { apiKey: ApiKey; now: Date; onRoll: (key: ApiKey) => void; onReset: (key: ApiKey) => void };

function KeyDetails({ apiKey, now, onRoll, onReset }: DetailsProps) {
  const [window, setWindow] = useState<UsageWindow>('7d');
  const usage = useKeyUsage(apiKey.id, window);
  const reason = disabledReasonText(apiKey);
  const soon = expiresSoonText(apiKey, now);
  const canRoll = apiKey.status !== 'expired' && !isRetiring(apiKey, now);
  return (
    <Stack gap="lg" data-testid="key-details">
      {apiKey.disabled_reason === 'leaked' && !apiKey.enabled && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Disabled — reported leaked">
          This key was found where others can read it, so it was disabled and cannot be enabled again. Roll it to get a
          new key, then update whatever used this one.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
        <Field label="Hint">
          <Code>{apiKey.hint}</Code>
        </Field>
        <Field label="Status">
          <Group gap="xs">
            <Text size="sm">{statusText(apiKey)}</Text>
            {soon && (
              <Badge color="yellow" variant="light" radius="sm">
                {soon}
              </Badge>
            )}
          </Group>
          {reason && (
            <Text size="xs" c="dimmed">
              {reason}
            </Text>
          )}
        </Field>
        <Field label="Created">
          <KeyCreated apiKey={apiKey} />
        </Field>
        <Field label="Expires">
          <KeyExpires apiKey={apiKey} />
        </Field>
        <Field label="Retires">
          {apiKey.retires_at ? (
            <Stack gap={0}>
              <Text size="sm">{retiresInText(apiKey.retires_at, now)}</Text>
              <Text size="xs" c="dimmed" component="time" dateTime={apiKey.retires_at}>
                {formatInstant(apiKey.retires_at)}
              </Text>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              Not rolled
            </Text>
          )}
        </Field>
        <Field label="Last used">
          <KeyLastUsed apiKey={apiKey} now={now} />
        </Field>
      </SimpleGrid>
      <Field label="Rate limit">
        <RateLimitEditor key={apiKey.id} apiKey={apiKey} />
      </Field>
      <Field label="Quota">
        <QuotaEditor key={apiKey.id} apiKey={apiKey} onReset={onReset} />
      </Field>
      <Field label="Allowed IP addresses">
        <AllowedIpsEditor key={apiKey.id} apiKey={apiKey} />
      </Field>
      <Field label="Last refused for its address">
        <LastRefused apiKey={apiKey} />
      </Field>
      {canRoll && (
        <Group>
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => onRoll(apiKey)}>
            Roll this key
          </Button>
        </Group>
      )}
      <UsagePanel
        id="key-usage"
        title="Requests with this key"
        headingOrder={3}
        window={window}
        onWindow={setWindow}
        usage={usage}
        height={200}
      />
      <KeyRequests keyId={apiKey.id} />
    </Stack>
  );
}
