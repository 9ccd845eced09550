import { Group, Paper, SimpleGrid, Stack, Table } from '@mantine/core';
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
  if (narrow) {
    return (
      <Stack gap="sm" component="ul" aria-label="API keys" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {keys.map((key) => (
          <Paper component="li" key={key.id} withBorder p="md" data-key-id={key.id}>
            <Stack gap="sm">
              <KeyName apiKey={key} now={now} onOpen={actions.onOpen} />
              <SimpleGrid cols={2} spacing="sm">
                <Field label="Created">
                  <KeyCreated apiKey={key} />
                </Field>
                <Field label="Expires">
                  <KeyExpires apiKey={key} />
                </Field>
                <Field label="Last used">
                  <KeyLastUsed apiKey={key} now={now} />
                </Field>
                <Field label="Last 7 days">
                  <KeySparkline keyId={key.id} name={key.name} />
                </Field>
              </SimpleGrid>
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                <EnabledSwitch apiKey={key} authority={authority} onToggle={actions.onToggle} />
                <Group gap={4} wrap="nowrap">
                  <RollKeyButton apiKey={key} now={now} onRoll={actions.onRoll} />
                  <DeleteKeyButton apiKey={key} onDelete={actions.onDelete} />
                </Group>
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="API keys">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">Expires</Table.Th>
          <Table.Th scope="col">Last used</Table.Th>
          <Table.Th scope="col">Last 7 days</Table.Th>
          <Table.Th scope="col">Enabled</Table.Th>
          <Table.Th scope="col">
            <span className="sr-only">Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => (
          <Table.Tr key={key.id} data-key-id={key.id}>
            <Table.Td maw={280}>
              <KeyName apiKey={key} now={now} onOpen={actions.onOpen} />
            </Table.Td>
            <Table.Td>
              <KeyCreated apiKey={key} />
            </Table.Td>
            <Table.Td>
              <KeyExpires apiKey={key} />
            </Table.Td>
            <Table.Td>
              <KeyLastUsed apiKey={key} now={now} />
            </Table.Td>
            <Table.Td>
              <KeySparkline keyId={key.id} name={key.name} />
            </Table.Td>
            <Table.Td>
              <EnabledSwitch apiKey={key} authority={authority} onToggle={actions.onToggle} />
            </Table.Td>
            <Table.Td ta="right">
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <RollKeyButton apiKey={key} now={now} onRoll={actions.onRoll} />
                <DeleteKeyButton apiKey={key} onDelete={actions.onDelete} />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
