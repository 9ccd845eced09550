import { Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ApiKey } from '../shared/api-types.ts';
import { formatExpiry } from '../shared/dates.ts';

/** The expiry date and, beside it, the exact instant the key stops: 00:00 UTC of that date. */
export function KeyExpires({ apiKey }: { apiKey: ApiKey }) {
  if (!apiKey.expires_at_time) {
    return (
      <Text size="sm" c="dimmed">
        <span aria-hidden>—</span>
        <VisuallyHidden>Does not expire</VisuallyHidden>
      </Text>
    );
  }
  const { date, stopsAt } = formatExpiry(apiKey.expires_at_time);
  return (
    <Stack gap={0}>
      <Text size="sm" component="time" dateTime={apiKey.expires_at_time} title={stopsAt}>
        {date}
      </Text>
      <Text size="xs" c="dimmed">
        {apiKey.status === 'expired' ? 'stopped' : 'stops'} at 00:00 UTC
      </Text>
    </Stack>
  );
}
