import {
  Button,
  Center,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useKeys } from '../keys/keys-api.ts';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { formatInstant } from '../shared/dates.ts';
import { OUTCOME_OPTIONS, requestText } from './outcome-text.ts';
import { OutcomeBadge, RequestDetail } from './RequestDetail.tsx';
import {
  exportHref,
  NO_FILTERS,
  useRequestLog,
  type RequestFilters,
  type RequestLogEntry,
  type RequestOutcome,
} from './request-log-api.ts';

/** Every request made with the tenant's keys, newest first: filtered, opened one by one, exported. */
export function RequestsPanel() {
  const [filters, setFilters] = useState<RequestFilters>(NO_FILTERS);
  // Typed filters wait for a pause in typing: one query per filter, not one per keystroke.
  const [settled] = useDebouncedValue(filters, 300);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const set = (name: keyof RequestFilters) => (value: string | null) => setFilters({ ...filters, [name]: value ?? '' });
  const keys = useKeys();
  const log = useRequestLog(settled);
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const rows = log.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" component="form" aria-label="Filter requests">
        <Select
          label="Key"
          placeholder="Any key"
          clearable
          searchable
          data={(keys.data?.data ?? []).map((key) => ({ value: key.id, label: key.name }))}
          value={filters.key || null}
          onChange={set('key')}
        />
        <Select
          label="Outcome"
          placeholder="Any outcome"
          clearable
          data={OUTCOME_OPTIONS}
          value={filters.outcome || null}
          onChange={(value) => setFilters({ ...filters, outcome: (value ?? '') as RequestOutcome | '' })}
        />
        <TextInput
          label="Status"
          placeholder="e.g. 429"
          inputMode="numeric"
          value={filters.status}
          onChange={(event) => set('status')(event.currentTarget.value)}
        />
        <TextInput
          label="Address or range"
          placeholder="e.g. 198.51.100.0/24"
          value={filters.address}
          onChange={(event) => set('address')(event.currentTarget.value)}
        />
        <TextInput
          label="From (UTC)"
          type="datetime-local"
          value={filters.from}
          onChange={(event) => set('from')(event.currentTarget.value)}
        />
        <TextInput
          label="To (UTC)"
          type="datetime-local"
          value={filters.to}
          onChange={(event) => set('to')(event.currentTarget.value)}
        />
      </SimpleGrid>
      <Group justify="space-between">
        <Button variant="subtle" onClick={() => setFilters(NO_FILTERS)} disabled={filters === NO_FILTERS}>
          Clear filters
        </Button>
        <Button
          component="a"
          href={exportHref(settled)}
          download="requests.ndjson"
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          Export (NDJSON)
        </Button>
      </Group>
      {log.isPending ? (
        <LoadingRows label="Loading requests" rows={5} height={36} />
      ) : log.isError ? (
        <ProblemAlert error={log.error} title="The requests could not be loaded" onRetry={() => void log.refetch()} />
      ) : rows.length === 0 ? (
        <Paper withBorder p="xl">
          <Text ta="center">No requests match. Requests made with your keys appear here within seconds.</Text>
        </Paper>
      ) : (
        <RequestTable rows={rows} narrow={narrow} onOpen={setOpen} />
      )}
      {log.hasNextPage && (
        <Center>
          <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Show older requests
          </Button>
        </Center>
      )}
      <RequestDetail entry={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

type TableProps = {
  rows: RequestLogEntry[];
  narrow: boolean;
  onOpen: (entry: RequestLogEntry) => void;
  /** Off in a key's own view, where every row is that key. */
  withKey?: boolean;
};

/** The rows of a log; each opens its detail. Shared by the tab and a key's view. */
export function RequestTable({ rows, narrow, onOpen, withKey = true }: TableProps) {
  return (
    <ResponsiveTable
      label="Requests"
      dense
      narrow={narrow}
      rows={rows}
      rowKey={(entry) => entry.id}
      card={(entry) => (
        <Stack gap={4}>
          <Group justify="space-between" wrap="nowrap">
            <OutcomeBadge entry={entry} />
            <UnstyledButton onClick={() => onOpen(entry)} aria-label={`Request at ${formatInstant(entry.at)}`}>
              <Text size="sm" component="time" dateTime={entry.at} td="underline">
                {formatInstant(entry.at)}
              </Text>
            </UnstyledButton>
          </Group>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {requestText(entry)}
          </Text>
          <Text size="xs" c="dimmed">
            {entry.key.name} · from {entry.address ?? 'an unknown address'}
          </Text>
        </Stack>
      )}
      columns={[
        {
          header: 'When',
          td: { style: { whiteSpace: 'nowrap' } },
          cell: (entry) => (
            <UnstyledButton onClick={() => onOpen(entry)} aria-label={`Request at ${formatInstant(entry.at)}`}>
              <Text size="sm" component="time" dateTime={entry.at} td="underline">
                {formatInstant(entry.at)}
              </Text>
            </UnstyledButton>
          ),
        },
        ...(withKey
          ? [{ header: 'Key', cell: (entry: RequestLogEntry) => <Text size="sm">{entry.key.name}</Text> }]
          : []),
        {
          header: 'Request',
          td: { style: { wordBreak: 'break-all' } },
          cell: (entry) => <Text size="sm">{requestText(entry)}</Text>,
        },
        { header: 'Outcome', td: { style: { whiteSpace: 'nowrap' } }, cell: (entry) => <OutcomeBadge entry={entry} /> },
        { header: 'From', cell: (entry) => <Text size="sm">{entry.address ?? '—'}</Text> },
      ]}
    />
  );
}
