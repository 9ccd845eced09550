import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ResponsiveTable, type Column } from '../shared/ResponsiveTable.tsx';
import {
  DeleteKeyButton,
  EnabledSwitch,
  Field,
  KeyCreated,
  KeyExpires,
  KeyLastUsed,
  RollKeyButton,
} from './KeyFields.tsx';
import { KeyName } from './KeyName.tsx';
import { KeySparkline } from './KeySparkline.tsx';
import { QuotaBar } from './QuotaBar.tsx';
import { rateLimitText } from './rate-limit-text.ts';
import type { ApiKey, KeyAuthority } from './keys-api.ts';

export type KeyActions = {
  onToggle: (key: ApiKey, enabled: boolean) => void;
  onDelete: (key: ApiKey) => void;
  onRoll: (key: ApiKey) => void;
  onOpen: (key: ApiKey) => void;
};

type Props = KeyActions & { keys: ApiKey[]; authority: KeyAuthority; now: Date; narrow: boolean };

/** One page of keys, newest first (the server's order): a table on wide screens, one card per key on narrow ones. */
export function KeyList({ keys, authority, now, narrow, ...actions }: Props) {
  // The facts a row and a card both show, in the same order.
  const facts: Array<Column<ApiKey>> = [
    { header: 'Created', cell: (key) => <KeyCreated apiKey={key} /> },
    { header: 'Expires', cell: (key) => <KeyExpires apiKey={key} /> },
    { header: 'Last used', cell: (key) => <KeyLastUsed apiKey={key} now={now} /> },
    { header: 'Last 7 days', cell: (key) => <KeySparkline keyId={key.id} name={key.name} /> },
    { header: 'Rate limit', cell: (key) => <KeyRateLimit apiKey={key} /> },
    { header: 'Quota', cell: (key) => <QuotaBar apiKey={key} testId="row-quota" /> },
  ];
  const name = (key: ApiKey) => <KeyName apiKey={key} now={now} onOpen={actions.onOpen} />;
  const enabled = (key: ApiKey) => <EnabledSwitch apiKey={key} authority={authority} onToggle={actions.onToggle} />;
  const buttons = (key: ApiKey) => (
    <>
      <RollKeyButton apiKey={key} now={now} onRoll={actions.onRoll} />
      <DeleteKeyButton apiKey={key} onDelete={actions.onDelete} />
    </>
  );
  return (
    <ResponsiveTable
      label="API keys"
      rows={keys}
      rowKey={(key) => key.id}
      rowProps={(key) => ({ 'data-key-id': key.id })}
      narrow={narrow}
      columns={[
        { header: 'Name', cell: name, td: { maw: 280 } },
        ...facts,
        { header: 'Enabled', cell: enabled },
        {
          header: 'Actions',
          hidden: true,
          td: { ta: 'right' },
          cell: (key) => (
            <Group gap={4} justify="flex-end" wrap="nowrap">
              {buttons(key)}
            </Group>
          ),
        },
      ]}
      card={(key) => (
        <Stack gap="sm">
          {name(key)}
          <SimpleGrid cols={2} spacing="sm">
            {facts.map((fact) => (
              <Field key={fact.header} label={fact.header}>
                {fact.cell(key)}
              </Field>
            ))}
          </SimpleGrid>
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
            {enabled(key)}
            <Group gap={4} wrap="nowrap">
              {buttons(key)}
            </Group>
          </Group>
        </Stack>
      )}
    />
  );
}

function KeyRateLimit({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Text size="sm" c={apiKey.rate_limit ? undefined : 'dimmed'} data-testid="row-rate-limit">
      {rateLimitText(apiKey.rate_limit)}
    </Text>
  );
}
