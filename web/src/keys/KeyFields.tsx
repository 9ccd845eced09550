import { Button, Stack, Switch, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { formatDate, formatExpiry, formatInstant, formatLastUsed } from '../shared/dates.ts';
import { lockReason, statusText } from './key-state.ts';
import { isRetiring } from './key-times.ts';
import type { ReactNode } from 'react';
import type { ApiKey, KeyAuthority } from './keys-api.ts';

// What the table (wide screens) and the cards (narrow ones) show of one key, in the same words.

// Wide enough for a usual address in the key table; a longer one is cut short, never wrapped.
const CREATOR_MAX_WIDTH = 200;

/**
 * The date, and who created the key on one line: an address never breaks mid-word; one too long
 * for the column ends in "…", with the whole of it on hover (and in the text screen readers read).
 */
export function KeyCreated({ apiKey }: { apiKey: ApiKey }) {
  const by = apiKey.created_by ? `by ${apiKey.created_by.email}` : 'by a deleted user';
  return (
    <Stack gap={0} miw={0}>
      <Text size="sm" title={formatInstant(apiKey.created_at)}>
        {formatDate(apiKey.created_at)}
      </Text>
      <Text
        size="xs"
        c="dimmed"
        truncate="end"
        maw={CREATOR_MAX_WIDTH}
        title={apiKey.created_by?.email}
        data-testid="key-created-by"
      >
        {by}
      </Text>
    </Stack>
  );
}

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

type SwitchProps = { apiKey: ApiKey; authority: KeyAuthority; onToggle: (key: ApiKey, enabled: boolean) => void };

/** The key's Enabled switch; off and locked, with the reason, when it cannot change. */
export function EnabledSwitch({ apiKey, authority, onToggle }: SwitchProps) {
  const locked = lockReason(apiKey, authority);
  const reasonId = `key-${apiKey.id}-lock`;
  return (
    <Stack gap={4}>
      <Switch
        checked={apiKey.status === 'enabled'}
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

export function DeleteKeyButton({ apiKey, onDelete }: { apiKey: ApiKey; onDelete: (key: ApiKey) => void }) {
  return (
    <Button
      variant="subtle"
      color="red"
      size="xs"
      leftSection={<IconTrash size={16} aria-hidden />}
      aria-label={`Delete ${apiKey.name}`}
      onClick={() => onDelete(apiKey)}
    >
      Delete
    </Button>
  );
}

/** Roll: not for an expired key (the server refuses it) nor for one already rolled and retiring. */
export function RollKeyButton({ apiKey, now, onRoll }: { apiKey: ApiKey; now: Date; onRoll: (key: ApiKey) => void }) {
  if (apiKey.status === 'expired' || isRetiring(apiKey, now)) return null;
  return (
    <Button
      variant="subtle"
      size="xs"
      leftSection={<IconRefresh size={16} aria-hidden />}
      aria-label={`Roll ${apiKey.name}`}
      onClick={() => onRoll(apiKey)}
    >
      Roll
    </Button>
  );
}

/** A labelled fact: on a narrow-screen card and in a key's drawer. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dark.3" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
