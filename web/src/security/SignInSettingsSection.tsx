import { Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { OAuthAppsSetting, SecondFactorRequirement } from '@contracts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { FailureAlert, LoadingRows, ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { useEndTenantSessions, useSignInSettings, useUpdateSignInSettings } from './security-api.ts';

const CHOICES: Array<{ value: SecondFactorRequirement; label: string; description: string }> = [
  { value: 'none', label: 'Nobody', description: 'Each person chooses. Those with a second factor are asked for it.' },
  {
    value: 'key_managers',
    label: 'People who manage keys or users',
    description: 'System Administrators and Administrators must add one before they can do anything else.',
  },
  { value: 'everyone', label: 'Everyone', description: 'Every person must add one before using the back office.' },
];

const APP_CHOICES: Array<{ value: OAuthAppsSetting; label: string; description: string }> = [
  {
    value: 'off',
    label: 'Nobody',
    description: 'No app can be connected; apps already connected keep working until revoked.',
  },
  {
    value: 'key_managers',
    label: 'People who may create keys',
    description: 'An app acts as the person who approved it, like a key made by them.',
  },
  { value: 'everyone', label: 'Everyone', description: 'Any person may connect an app that acts as them.' },
];

/** The organisation's sign-in rules, for System Administrators: who must have a second factor. */
export function SignInSettingsSection() {
  const settings = useSignInSettings(true);
  const update = useUpdateSignInSettings();
  const endAll = useEndTenantSessions();
  const notify = useFeedback();
  const [choice, setChoice] = useState<SecondFactorRequirement | null>(null);
  const [appsChoice, setAppsChoice] = useState<OAuthAppsSetting | null>(null);
  const [endingAll, setEndingAll] = useState<true | null>(null);
  const saved = settings.data?.second_factor_required;
  // The person's choice, until saved; null shows what the server holds.
  const shown = choice ?? saved;
  const savedApps = settings.data?.oauth_apps;
  const shownApps = appsChoice ?? savedApps;
  const save = () => {
    if (!choice && !appsChoice) return;
    update.mutate(
      { ...(choice ? { second_factor_required: choice } : {}), ...(appsChoice ? { oauth_apps: appsChoice } : {}) },
      {
        onSuccess: () => {
          setChoice(null);
          setAppsChoice(null);
          notify('success', 'Sign-in settings saved', 'They apply from everyone’s next request.');
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="settings-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="settings-title">
          Sign-in settings for the organisation
        </Title>
        {settings.isPending && <LoadingRows label="Loading the sign-in settings" rows={3} height={32} />}
        {settings.isError && (
          <ProblemAlert
            error={settings.error}
            title="The sign-in settings could not be loaded"
            onRetry={() => void settings.refetch()}
          />
        )}
        {settings.data && (
          <>
            <Radio.Group
              label="Who must use a second factor"
              description="Someone covered who has none can only add one until they do."
              value={shown ?? null}
              onChange={(value) => setChoice(value)}
            >
              <Stack gap="xs" mt="xs">
                {CHOICES.map((each) => (
                  <Radio key={each.value} value={each.value} label={each.label} description={each.description} />
                ))}
              </Stack>
            </Radio.Group>
            <Radio.Group
              label="Who may connect apps (Claude, ChatGPT, VS Code, Cursor)"
              description="Connecting an app lets it use the MCP server or the API as the person who approved it."
              value={shownApps ?? null}
              onChange={(value) => setAppsChoice(value)}
            >
              <Stack gap="xs" mt="xs">
                {APP_CHOICES.map((each) => (
                  <Radio key={each.value} value={each.value} label={each.label} description={each.description} />
                ))}
              </Stack>
            </Radio.Group>
            {update.error !== null && <FailureAlert title="The settings were not saved" error={update.error} />}
            <Group gap="sm">
              <Button onClick={save} disabled={shown === saved && shownApps === savedApps} loading={update.isPending}>
                Save sign-in settings
              </Button>
            </Group>
          </>
        )}
        <Group justify="space-between" gap="sm" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Text size="sm" c="dark.4" maw={520}>
            A lost laptop or a departure: sign out every person in the organisation except you.
          </Text>
          <Button variant="default" color="red" onClick={() => setEndingAll(true)}>
            End every session
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        target={endingAll}
        action={{ ...endAll, mutate: (_target, options) => endAll.mutate(undefined, options) }}
        title="End every session in the organisation?"
        failureTitle="The sessions were not ended"
        confirmLabel="End every session"
        warning="Everyone but you is signed out at once."
        done={() => ['Every other session ended', 'Everyone else must sign in again.']}
        onClose={() => setEndingAll(null)}
      >
        {() => 'Every person, on every browser, must sign in again. API keys keep working.'}
      </ConfirmDialog>
    </Paper>
  );
}
