import { Stack, Text } from '@mantine/core';
import type { ApiKey } from '../shared/api-types.ts';
import { formatDate, formatInstant } from '../shared/dates.ts';

export function KeyCreated({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap={0}>
      <Text size="sm" title={formatInstant(apiKey.created_at)}>
        {formatDate(apiKey.created_at)}
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {apiKey.created_by ? `by ${apiKey.created_by.email}` : 'by a deleted user'}
      </Text>
    </Stack>
  );
}
