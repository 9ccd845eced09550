import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { formatInstant } from '../shared/dates.ts';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { useOAuthGrants, useRevokeGrant, type GrantScope, type OAuthGrantView } from './oauth-grants-api.ts';

const resourceLabel = (resource: string) => (resource.endsWith('/mcp') ? 'MCP server' : 'API');

const TEXT: Record<GrantScope, { title: string; intro: string; empty: string }> = {
  mine: {
    title: 'Connected apps',
    intro:
      'Apps you approved (Claude, ChatGPT, VS Code, Cursor…) act as you, with your roles. Revoke one to cut it off.',
    empty: 'You have not connected any app.',
  },
  all: {
    title: 'Connected apps in the organisation',
    intro: 'Every app a person approved acts as that person. Revoking one cuts it off at once.',
    empty: 'Nobody in the organisation has connected an app.',
  },
};

/** The OAuth grants people approved (docs/oauth.md): one's own, or the organisation's. */
export function ConnectedAppsSection({ scope, narrow }: { scope: GrantScope; narrow: boolean }) {
  const grants = useOAuthGrants(scope);
  const revoke = useRevokeGrant();
  const [revoking, setRevoking] = useState<OAuthGrantView | null>(null);
  const text = TEXT[scope];
  const titleId = `connected-apps-${scope}`;
  const action = (grant: OAuthGrantView) => (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      onClick={() => setRevoking(grant)}
      aria-label={`Revoke ${grant.app_name}${scope === 'all' ? ` for ${grant.user.email}` : ''}`}
    >
      Revoke
    </Button>
  );
  const lastUsed = (grant: OAuthGrantView) => (grant.last_used_at ? formatInstant(grant.last_used_at) : 'Never');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={titleId}>
          {text.title}
        </Title>
        <Text size="sm" c="dark.4">
          {text.intro}
        </Text>
        {grants.isPending && <LoadingRows label="Loading the connected apps" rows={2} height={40} />}
        {grants.isError && (
          <ProblemAlert
            error={grants.error}
            title="The connected apps could not be loaded"
            onRetry={() => void grants.refetch()}
          />
        )}
        {grants.data?.length === 0 && (
          <Text size="sm" c="dark.4">
            {text.empty}
          </Text>
        )}
        {grants.data && grants.data.length > 0 && (
          <ResponsiveTable
            label={text.title}
            rows={grants.data}
            rowKey={(grant) => grant.id}
            narrow={narrow}
            columns={[
              {
                header: 'App',
                cell: (grant) => (
                  <Text fw={600} size="sm">
                    {grant.app_name}
                  </Text>
                ),
              },
              ...(scope === 'all' ? [{ header: 'Person', cell: (grant: OAuthGrantView) => grant.user.email }] : []),
              { header: 'Resource', cell: (grant) => resourceLabel(grant.resource) },
              { header: 'Approved', cell: (grant) => formatInstant(grant.approved_at) },
              { header: 'Last used', cell: lastUsed },
              { header: 'Actions', hidden: true, cell: action },
            ]}
            card={(grant) => (
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  {grant.app_name}
                </Text>
                <Text size="sm" c="dark.4">
                  {scope === 'all' ? `${grant.user.email} · ` : ''}
                  {resourceLabel(grant.resource)} · approved {formatInstant(grant.approved_at)} · last used{' '}
                  {lastUsed(grant)}
                </Text>
                {action(grant)}
              </Stack>
            )}
          />
        )}
      </Stack>
      <ConfirmDialog
        target={revoking}
        action={revoke}
        title="Revoke this app?"
        failureTitle="The app was not revoked"
        confirmLabel="Revoke app"
        warning="Its tokens stop working at once; to use it again, connect it again."
        done={(grant) => ['App revoked', `${grant.app_name} can no longer act as ${grant.user.email}.`]}
        onClose={() => setRevoking(null)}
      >
        {(grant) =>
          `${grant.app_name} (${grant.client_id}), acting as ${grant.user.email} on the ${resourceLabel(grant.resource)}.`
        }
      </ConfirmDialog>
    </Paper>
  );
}
