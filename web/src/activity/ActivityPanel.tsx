import { Button, Center, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useAuditEvents } from './activity-api.ts';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { formatInstant, formatRelative } from '../shared/dates.ts';
import { useNow } from '../shared/use-now.ts';
import { actorOf, describeEvent } from './describe-event.ts';

/** Who did what, when: the tenant's audit trail, newest first. */
export function ActivityPanel() {
  const events = useAuditEvents();
  const now = useNow();
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (events.isPending) {
    return <LoadingRows label="Loading activity" rows={4} height={36} />;
  }
  if (events.isError)
    return (
      <ProblemAlert
        error={events.error}
        title="The activity could not be loaded"
        onRetry={() => void events.refetch()}
      />
    );
  const rows = events.data.pages.flatMap((page) => page.data);
  if (rows.length === 0) {
    return (
      <Paper withBorder p="xl">
        <Text ta="center">Nothing has happened yet. Changes to keys and users will appear here.</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="sm">
      <ResponsiveTable
        label="Activity"
        dense
        minWidth={narrow ? 560 : 0}
        rows={rows}
        rowKey={(event) => event.id}
        columns={[
          {
            header: 'When',
            td: { style: { whiteSpace: 'nowrap' } },
            cell: (event) => (
              <>
                <Text size="sm" component="time" dateTime={event.at} title={formatInstant(event.at)}>
                  {formatRelative(event.at, now)}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatInstant(event.at)}
                </Text>
              </>
            ),
          },
          {
            header: 'Who',
            td: { style: { wordBreak: 'break-all' } },
            cell: (event) => <Text size="sm">{actorOf(event)}</Text>,
          },
          { header: 'What', cell: (event) => <Text size="sm">{describeEvent(event)}</Text> },
        ]}
      />
      {events.hasNextPage && (
        <Center>
          <Button variant="default" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
            Show older activity
          </Button>
        </Center>
      )}
    </Stack>
  );
}
