import { Stack, Switch, Text } from '@mantine/core';
import type { ApiKey, KeyAuthority } from '../shared/api-types.ts';
import { lockReason, statusText } from './key-state.ts';

type Props = { apiKey: ApiKey; authority: KeyAuthority; onToggle: (key: ApiKey, enabled: boolean) => void };

/** The key's Enabled switch; off and locked, with the reason, when it cannot change. */
export function EnabledSwitch({ apiKey, authority, onToggle }: Props) {
  const locked = lockReason(apiKey, authority);
  const on = apiKey.status === 'enabled';
  const reasonId = `key-${apiKey.id}-lock`;
  return (
    <Stack gap={4}>
      <Switch
        checked={on}
        disabled={locked !== undefined}
        onChange={(event) => onToggle(apiKey, event.currentTarget.checked)}
        label={statusText(apiKey)}
        aria-label={`Enabled: ${apiKey.name}`}
        aria-describedby={locked ? reasonId : undefined}
        color="teal"
        styles={{ label: { whiteSpace: 'nowrap' } }}
      />
      {locked && (
        <Text id={reasonId} size="xs" c="dimmed" maw={220}>
          {locked}
        </Text>
      )}
    </Stack>
  );
}
