import { Button, Center, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useAuditEvents } from './activity-api.ts';
import { ProblemAlert } from '../shared/Feedback.tsx';
import { formatInstant, formatRelative } from '../shared/dates.ts';
import { useNow } from '../shared/use-now.ts';
import { actorOf, describeEvent } from './describe-event.ts';

/** Who did what, when: the tenant's audit trail, newest first. */
export function ActivityPanel() {
  const events = useAuditEvents();
  const now = useNow();
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (events.isPending) {
    return (
      <Stack gap="xs" role="status" aria-label="Loading activity">
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} height={36} />
        ))}
      </Stack>
    );
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
      <Table.ScrollContainer minWidth={narrow ? 560 : 0}>
        <Table verticalSpacing="xs" striped aria-label="Activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Who</Table.Th>
              <Table.Th scope="col">What</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" component="time" dateTime={event.at} title={formatInstant(event.at)}>
                    {formatRelative(event.at, now)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatInstant(event.at)}
                  </Text>
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Text size="sm">{actorOf(event)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{describeEvent(event)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
