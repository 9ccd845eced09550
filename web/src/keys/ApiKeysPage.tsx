import { Stack, Tabs, Text, Title } from '@mantine/core';
import { IconApps, IconHistory, IconKey, IconList } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { permissionsOfSession, useSession } from '../session/session-api.ts';
import { ActivityPanel } from '../activity/ActivityPanel.tsx';
import { KeysPanel } from './KeysPanel.tsx';
import { RequestsPanel } from '../requests/RequestsPanel.tsx';
import { ConnectedAppsSection } from '../oauth/ConnectedAppsSection.tsx';

/**
 * /backoffice/settings/api-keys: the keys, the requests made with them, the apps connected with
 * OAuth (System Administrators), and the activity that changed them.
 */
export function ApiKeysPage() {
  const session = useSession();
  const canReadAudit = permissionsOfSession(session.data).includes('audit:read');
  // The organisation's connected apps sit beside its keys, for those who administer both.
  const seesApps = session.data?.user.roles.includes('system_administrator') ?? false;
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [tab, setTab] = useState<string | null>('keys');
  return (
    <Stack gap="md">
      <div>
        <Title order={1}>API keys</Title>
        <Text c="dark.4" mt={4}>
          Keys let scripts, services and AI agents call this organisation’s API and MCP server.
        </Text>
      </div>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label="API key views">
          <Tabs.Tab value="keys" leftSection={<IconKey size={16} aria-hidden />}>
            Keys
          </Tabs.Tab>
          <Tabs.Tab value="requests" leftSection={<IconList size={16} aria-hidden />}>
            Requests
          </Tabs.Tab>
          {seesApps && (
            <Tabs.Tab value="apps" leftSection={<IconApps size={16} aria-hidden />}>
              Connected apps
            </Tabs.Tab>
          )}
          {canReadAudit && (
            <Tabs.Tab value="activity" leftSection={<IconHistory size={16} aria-hidden />}>
              Activity
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="keys" pt="md">
          <KeysPanel />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <RequestsPanel />
        </Tabs.Panel>
        {seesApps && (
          <Tabs.Panel value="apps" pt="md">
            <ConnectedAppsSection scope="all" narrow={narrow} />
          </Tabs.Panel>
        )}
        {canReadAudit && (
          <Tabs.Panel value="activity" pt="md">
            <ActivityPanel />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
