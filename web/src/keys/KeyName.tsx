import { Badge, Code, Group, Stack, Text } from '@mantine/core';
import type { ApiKey } from '../shared/api-types.ts';

/** Name, Expired badge and hint (`ask_…abcd`), which tells keys apart without the secret. */
export function KeyName({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Text fw={600} style={{ wordBreak: 'break-word' }}>
          {apiKey.name}
        </Text>
        {apiKey.status === 'expired' && (
          <Badge color="red" variant="light" radius="sm">
            Expired
          </Badge>
        )}
      </Group>
      <Code c="dark.4" style={{ alignSelf: 'flex-start' }} aria-label={`Hint ${apiKey.hint}`}>
        {apiKey.hint}
      </Code>
    </Stack>
  );
}
