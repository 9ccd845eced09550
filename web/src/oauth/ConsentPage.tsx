import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ConsentView } from '@contracts';
import { request } from '../shared/api-client.ts';
import { ProblemAlert } from '../shared/Feedback.tsx';

const WARNINGS: Record<ConsentView['warnings'][number], string> = {
  loopback_only: 'The app receives your approval on this computer only: any program running here could be listening.',
  redirect_host_differs: 'Your approval is sent to a host other than the one that publishes this app.',
};

/** An app asks to act as the signed-in person (docs/oauth.md): approve or deny. */
export function ConsentPage({ uid }: { uid: string }) {
  const path = `/oauth/interactions/${encodeURIComponent(uid)}`;
  const view = useQuery({ queryKey: ['oauth-interaction', uid], queryFn: () => request<ConsentView>('GET', path) });
  const answer = useMutation({
    mutationFn: (choice: 'approve' | 'deny') => request<{ redirect_to: string }>('POST', `${path}/${choice}`),
    onSuccess: ({ redirect_to }) => window.location.assign(redirect_to),
  });
  if (view.isPending) {
    return (
      <Center mih={240} role="status" aria-label="Loading the request">
        <Loader aria-hidden />
      </Center>
    );
  }
  if (view.isError) return <ProblemAlert error={view.error} title="This request cannot be answered" />;
  const { app, redirect_host, warnings, organisation, resource_name, may_approve } = view.data;
  return (
    <Paper component="main" maw={560} mx="auto" my="xl" p="lg" withBorder>
      <Stack>
        <Title order={1} size="h2">
          {app.name} wants to connect
        </Title>
        <Text>
          It acts as you, with your roles&apos; permissions, on {organisation.name}&apos;s {resource_name}.
        </Text>
        <Text size="sm">
          Organisation: <strong>{organisation.name}</strong> ({organisation.slug})
          <br />
          Sends you back to: <strong>{redirect_host || view.data.redirect_uri}</strong>
          <br />
          App: <code style={{ overflowWrap: 'anywhere' }}>{app.client_id}</code>
        </Text>
        {warnings.map((warning) => (
          <Alert key={warning} color="yellow" title="Check before approving">
            {WARNINGS[warning]}
          </Alert>
        ))}
        {!may_approve && (
          <Alert color="gray" title="You may not approve apps">
            Your organisation&apos;s settings do not let you approve apps; the app will be told no.
          </Alert>
        )}
        {answer.isError && <ProblemAlert error={answer.error} title="The answer was not sent" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer.mutate('deny')} loading={answer.isPending}>
            Deny
          </Button>
          {may_approve && (
            <Button onClick={() => answer.mutate('approve')} loading={answer.isPending}>
              Approve
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
