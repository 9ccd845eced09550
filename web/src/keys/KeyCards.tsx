import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DeleteKeyButton } from './DeleteKeyButton.tsx';
import { EnabledSwitch } from './EnabledSwitch.tsx';
import { KeyCreated } from './KeyCreated.tsx';
import { KeyExpires } from './KeyExpires.tsx';
import { KeyLastUsed } from './KeyLastUsed.tsx';
import { KeyName } from './KeyName.tsx';
import type { KeyListProps } from './KeysTable.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dark.3" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** Narrow screens: one card per key, the same facts as the table. */
export function KeyCards({ keys, authority, now, onToggle, onDelete }: KeyListProps) {
  return (
    <Stack gap="sm" component="ul" aria-label="API keys" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {keys.map((key) => (
        <Paper component="li" key={key.id} withBorder p="md" data-key-id={key.id}>
          <Stack gap="sm">
            <KeyName apiKey={key} />
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
            </SimpleGrid>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <EnabledSwitch apiKey={key} authority={authority} onToggle={onToggle} />
              <DeleteKeyButton apiKey={key} onDelete={onDelete} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
