import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { useRegenerateRecoveryCodes } from './security-api.ts';

type Props = { left: number; hasFactor: boolean; onRecoveryCodes: (codes: string[]) => void };

/** How many recovery codes are left, and ten new ones (the old ones stop working). */
export function RecoveryCodesCard({ left, hasFactor, onRecoveryCodes }: Props) {
  const regenerate = useRegenerateRecoveryCodes();
  const [asking, setAsking] = useState<true | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="recovery-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            <IconLifebuoy aria-hidden size={20} />
            <Title order={3} size="h4" id="recovery-title">
              Recovery codes
            </Title>
          </Group>
          {hasFactor && (
            <Button size="xs" variant="default" onClick={() => setAsking(true)}>
              Make new recovery codes
            </Button>
          )}
        </Group>
        <Text size="sm" c="dark.4">
          {hasFactor
            ? `${left} of 10 left. Each signs you in once in place of your second factor if you lose it.`
            : 'Ten codes come with your first second factor, to sign in if you lose it.'}
        </Text>
      </Stack>
      <ConfirmDialog
        target={asking}
        action={{
          ...regenerate,
          mutate: (_target, options) =>
            regenerate.mutate(undefined, {
              onSuccess: ({ recovery_codes }) => {
                options.onSuccess();
                onRecoveryCodes(recovery_codes);
              },
            }),
        }}
        title="Make new recovery codes?"
        failureTitle="No new recovery codes were made"
        confirmLabel="Make new codes"
        warning="Your current recovery codes stop working."
        done={() => ['New recovery codes made', 'Save them now: they are shown once.']}
        onClose={() => setAsking(null)}
      >
        {() => 'You get ten new codes, shown once.'}
      </ConfirmDialog>
    </Paper>
  );
}
