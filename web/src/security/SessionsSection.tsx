import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatInstant } from '../shared/dates.ts';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { browserName } from './browser-name.ts';
import { useEndOtherSessions, useEndSession, type SessionListItem } from './security-api.ts';

/** Every browser signed in as the person, so a lost laptop can be signed out from any other. */
export function SessionsSection({ sessions, narrow }: { sessions: SessionListItem[]; narrow: boolean }) {
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<SessionListItem | null>(null);
  const [endingOthers, setEndingOthers] = useState<true | null>(null);
  const others = sessions.filter((session) => !session.current).length;
  const where = (session: SessionListItem) => (
    <Group gap="xs" wrap="nowrap">
      <Text fw={600} size="sm" title={session.user_agent}>
        {browserName(session.user_agent)}
      </Text>
      {session.current && (
        <Badge color="indigo" variant="light" tt="none">
          This session
        </Badge>
      )}
    </Group>
  );
  const action = (session: SessionListItem) =>
    session.current ? null : (
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => setEnding(session)}
        aria-label={`End session in ${browserName(session.user_agent)} from ${session.address}`}
      >
        End
      </Button>
    );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h3" id="sessions-title">
            Where you are signed in
          </Title>
          <Button size="xs" variant="default" disabled={others === 0} onClick={() => setEndingOthers(true)}>
            End all other sessions
          </Button>
        </Group>
        <ResponsiveTable
          label="Your sessions"
          rows={sessions}
          rowKey={(session) => session.id}
          narrow={narrow}
          columns={[
            { header: 'Browser', cell: where },
            { header: 'Address', cell: (session) => session.address },
            { header: 'Signed in', cell: (session) => formatInstant(session.created_at) },
            { header: 'Last active', cell: (session) => formatInstant(session.last_seen_at) },
            { header: 'Actions', hidden: true, cell: action },
          ]}
          card={(session) => (
            <Stack gap={4}>
              {where(session)}
              <Text size="sm" c="dark.4">
                {session.address} · last active {formatInstant(session.last_seen_at)}
              </Text>
              {action(session)}
            </Stack>
          )}
        />
      </Stack>
      <ConfirmDialog
        target={ending}
        action={endOne}
        title="End this session?"
        failureTitle="The session was not ended"
        confirmLabel="End session"
        warning="That browser is signed out at once."
        done={() => ['Session ended', 'That browser must sign in again.']}
        onClose={() => setEnding(null)}
      >
        {(target) =>
          `${browserName(target.user_agent)} at ${target.address}, last active ${formatInstant(target.last_seen_at)}.`
        }
      </ConfirmDialog>
      <ConfirmDialog
        target={endingOthers}
        action={{ ...endOthers, mutate: (_target, options) => endOthers.mutate(undefined, options) }}
        title="End all other sessions?"
        failureTitle="The sessions were not ended"
        confirmLabel="End other sessions"
        warning="Every other browser is signed out at once."
        done={() => ['Other sessions ended', 'Only this browser is still signed in.']}
        onClose={() => setEndingOthers(null)}
      >
        {() => `You stay signed in here; ${others} other session${others === 1 ? '' : 's'} end.`}
      </ConfirmDialog>
    </Paper>
  );
}
