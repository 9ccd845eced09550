import { Table } from '@mantine/core';
import type { ApiKey, KeyAuthority } from '../shared/api-types.ts';
import { DeleteKeyButton } from './DeleteKeyButton.tsx';
import { EnabledSwitch } from './EnabledSwitch.tsx';
import { KeyCreated } from './KeyCreated.tsx';
import { KeyExpires } from './KeyExpires.tsx';
import { KeyLastUsed } from './KeyLastUsed.tsx';
import { KeyName } from './KeyName.tsx';

export type KeyListProps = {
  keys: ApiKey[];
  authority: KeyAuthority;
  now: Date;
  onToggle: (key: ApiKey, enabled: boolean) => void;
  onDelete: (key: ApiKey) => void;
};

/** Wide screens: one row per key, newest first (the server's order). */
export function KeysTable({ keys, authority, now, onToggle, onDelete }: KeyListProps) {
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="API keys">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">Expires</Table.Th>
          <Table.Th scope="col">Last used</Table.Th>
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
              <KeyName apiKey={key} />
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
              <EnabledSwitch apiKey={key} authority={authority} onToggle={onToggle} />
            </Table.Td>
            <Table.Td ta="right">
              <DeleteKeyButton apiKey={key} onDelete={onDelete} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
