import { Group, NativeSelect, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { filterKeys, isStatusFilter, pageOf, pageSummary, STATUS_FILTERS, type StatusFilter } from './key-filters.ts';
import { KeyList, type KeyActions } from './KeyList.tsx';
import type { ApiKey, KeyAuthority } from './keys-api.ts';

const FIRST_PAINT_ROWS = 10;

type Props = KeyActions & { keys: ApiKey[]; authority: KeyAuthority; now: Date; narrow: boolean };

/**
 * Search, status filter and pages of 50 over the tenant's keys: the list is filtered in the
 * browser (1,000 keys filter in well under a millisecond) and only one page is ever rendered.
 */
export function KeyBrowser({ keys, authority, now, narrow, ...actions }: Props) {
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  // Typing stays responsive; the table catches up a frame later.
  const deferredQuery = useDeferredValue(query);
  const matching = useMemo(() => filterKeys(keys, deferredQuery, status, now), [keys, deferredQuery, status, now]);
  const shown = pageOf(matching, page);
  // The first rows paint at once; the rest of the page follows in a background render that the
  // browser may interrupt (only a few rows fit above the fold anyway).
  const rows = useDeferredValue(shown.items, shown.items.slice(0, FIRST_PAINT_ROWS));

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="search"
          label="Search keys"
          placeholder="Name or hint, e.g. ask_…Xy9Z"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 240px' }}
          autoComplete="off"
        />
        <NativeSelect
          label="Status"
          data={STATUS_FILTERS.map(({ value, label }) => ({ value, label }))}
          value={status}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (isStatusFilter(value)) setStatus(value);
            setPage(1);
          }}
          style={{ flex: '0 1 200px' }}
        />
      </Group>
      <Text size="sm" c="dark.4" aria-live="polite" id="key-count" data-testid="key-count">
        {pageSummary(shown, keys.length)}
      </Text>
      {shown.items.length > 0 && <KeyList keys={rows} authority={authority} now={now} narrow={narrow} {...actions} />}
      {shown.pages > 1 && (
        <Group component="nav" aria-label="Pages of keys" justify="center">
          <Pagination
            total={shown.pages}
            value={shown.page}
            onChange={(next) => {
              setPage(next);
              document.getElementById('key-count')?.scrollIntoView({ block: 'start' });
            }}
            siblings={narrow ? 0 : 1}
            boundaries={1}
            getControlProps={(control) => ({
              'aria-label': control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
            })}
            getItemProps={(item) => ({
              'aria-label': `Page ${item}`,
              'aria-current': item === shown.page ? 'page' : undefined,
            })}
          />
        </Group>
      )}
    </Stack>
  );
}
