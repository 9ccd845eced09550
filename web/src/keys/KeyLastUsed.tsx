import { Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { ApiKey } from '../shared/api-types.ts';
import { formatInstant, formatLastUsed } from '../shared/dates.ts';

/** "Never" or relative time; the exact instant on hover and for screen readers. */
export function KeyLastUsed({ apiKey, now }: { apiKey: ApiKey; now: Date }) {
  if (!apiKey.last_used_at) {
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  }
  const exact = formatInstant(apiKey.last_used_at);
  return (
    <Tooltip label={exact} withArrow>
      <Text size="sm" component="time" dateTime={apiKey.last_used_at} style={{ textDecoration: 'underline dotted' }}>
        {formatLastUsed(apiKey.last_used_at, now)}
        <VisuallyHidden> ({exact})</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}
