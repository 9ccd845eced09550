import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconBuildingSkyscraper, IconPlugConnected } from '@tabler/icons-react';
import { useState } from 'react';
import type { SsoSettings, SsoTestResult } from '@contracts';
import { ProblemAlert } from '../shared/Feedback.tsx';
import { RoleChecks } from '../users/RoleChecks.tsx';
import type { Role } from '../users/roles.ts';
import { useSaveSso, useSignInSettings, useTestSso } from './sso-api.ts';
import { draftOf, inputOf, type SsoDraft } from './sso-text.ts';

/**
 * The organisation's identity provider, for a System Administrator (Security page): where it is,
 * the client, who may sign in and with which roles, and "test the connection" (discovery only).
 */
export function SsoSettingsSection() {
  const settings = useSignInSettings();
  if (settings.error) return <ProblemAlert error={settings.error} title="The sign-in settings could not be loaded" />;
  if (!settings.data) return null;
  const sso = settings.data.sso;
  // A saved change starts the form again from what the server now holds.
  return <SsoForm key={JSON.stringify(sso)} sso={sso} />;
}

function SsoForm({ sso }: { sso: SsoSettings | null }) {
  const save = useSaveSso();
  const test = useTestSso();
  const [draft, setDraft] = useState<SsoDraft>(() => draftOf(sso));
  const set = <K extends keyof SsoDraft>(key: K, value: SsoDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sso-title" data-testid="sso-settings">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="sso-title">
            <IconBuildingSkyscraper size={18} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
            Single sign-on
          </Title>
          <Text size="sm" c="dark.4" mt={4}>
            People sign in through your organisation’s identity provider (OpenID Connect). Register airkey there with
            the redirect URI{' '}
            <code style={{ overflowWrap: 'anywhere' }}>{`${window.location.origin}/backoffice/sso/callback`}</code>.
          </Text>
        </div>
        <TextInput
          label="Issuer"
          placeholder="https://login.example.com"
          value={draft.issuer}
          onChange={(e) => set('issuer', e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Client ID"
            value={draft.client_id}
            onChange={(e) => set('client_id', e.currentTarget.value)}
          />
          <PasswordInput
            label="Client secret"
            description={sso ? 'Stored and never shown; type a new one to replace it.' : undefined}
            value={draft.client_secret}
            onChange={(e) => set('client_secret', e.currentTarget.value)}
          />
        </Group>
        <TextInput
          label="Allowed e-mail domains"
          description="Comma-separated; anyone else is refused."
          value={draft.allowed_domains}
          onChange={(e) => set('allowed_domains', e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Role claim"
            placeholder="groups"
            value={draft.role_claim}
            onChange={(e) => set('role_claim', e.currentTarget.value)}
          />
          <Textarea
            label="Role map"
            description="One a line: claim value: role, role"
            autosize
            minRows={2}
            value={draft.role_map}
            onChange={(e) => set('role_map', e.currentTarget.value)}
          />
        </Group>
        <RoleChecks
          value={draft.default_roles as Role[]}
          onChange={(roles) => set('default_roles', roles)}
          canGrantSystemAdministrator
          label="Default roles of a new user"
        />
        <Checkbox
          label="Create users who sign in for the first time"
          checked={draft.create_users}
          onChange={(e) => set('create_users', e.currentTarget.checked)}
        />
        {save.error && <ProblemAlert error={save.error} title="The provider was not saved" />}
        {test.data && <TestOutcome result={test.data} />}
        {test.error && <ProblemAlert error={test.error} title="The connection could not be tested" />}
        <Group justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconPlugConnected size={16} aria-hidden />}
            loading={test.isPending}
            onClick={() => test.mutate(draft.issuer.trim() || undefined)}
          >
            Test the connection
          </Button>
          <Button loading={save.isPending} onClick={() => save.mutate({ sso: inputOf(draft) })}>
            Save single sign-on
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function TestOutcome({ result }: { result: SsoTestResult }) {
  if (!result.reachable) {
    return (
      <Alert
        color="red"
        variant="light"
        title="The provider could not be reached"
        role="status"
        data-testid="sso-test-result"
      >
        {result.detail}
      </Alert>
    );
  }
  const found = result.discovery;
  return (
    <Alert color="teal" variant="light" title={`Found ${found.issuer}`} role="status" data-testid="sso-test-result">
      Sign-in at {found.authorization_endpoint ?? '—'}, tokens at {found.token_endpoint ?? '—'}, keys at{' '}
      {found.jwks_uri ?? '—'}; the client authenticates with {found.client_authentication}.
    </Alert>
  );
}
