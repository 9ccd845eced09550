import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { ProblemAlert } from '../shared/Feedback.tsx';
import type { KeyPolicy } from './key-policy-api.ts';
import { policySummary } from './key-policy-text.ts';
import { KeyPolicyDialog } from './KeyPolicyDialog.tsx';

type Props = {
  policy: KeyPolicy | undefined;
  error: unknown;
  onRetry: () => void;
  /** How many listed keys break the policy (they keep working; the list marks them). */
  outside: number;
};

/** The tenant's key policy at a glance, above the keys, with the way to change it. */
export function KeyPolicySection({ policy, error, onRetry, outside }: Props) {
  const [editing, setEditing] = useState(false);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="key-policy-title" data-testid="key-policy">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: '1 1 320px' }}>
            <Title order={2} size="h4" id="key-policy-title">
              <IconShieldCheck size={18} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
              Key policy
            </Title>
            <Text size="sm" c="dark.4" mt={4}>
              Rules every new or rolled key of this organisation must follow. Existing keys keep working.
            </Text>
          </div>
          {policy && (
            <Button variant="default" onClick={() => setEditing(true)}>
              Change key policy
            </Button>
          )}
        </Group>
        {error !== null && error !== undefined && (
          <ProblemAlert error={error} title="The key policy could not be loaded" onRetry={onRetry} />
        )}
        {policy && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" component="dl" style={{ margin: 0 }}>
            {policySummary(policy).map((row) => (
              <div key={row.label}>
                <Text component="dt" size="xs" c="dark.4">
                  {row.label}
                </Text>
                <Text component="dd" fw={600} m={0}>
                  {row.value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
        {outside > 0 && (
          <Text size="sm" c="dark.6" data-testid="outside-policy-count">
            {outside === 1 ? '1 key is' : `${outside} keys are`} outside this policy. They keep working and are marked
            in the list; roll them to bring them in line.
          </Text>
        )}
      </Stack>
      {policy && <KeyPolicyDialog opened={editing} policy={policy} onClose={() => setEditing(false)} />}
    </Paper>
  );
}
