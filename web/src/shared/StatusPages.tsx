import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { linkHandler } from './router.ts';

/** Shown to a signed-in user whose roles do not open the page (the server answered 403 too). */
export function ForbiddenPage({ title, roleNeeded }: { title: string; roleNeeded: string }) {
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{title}</Title>
      <Alert
        color="orange"
        variant="light"
        icon={<IconLock aria-hidden />}
        title="You don’t have access to this page"
        role="alert"
      >
        <Text size="sm">
          This page needs the <strong>{roleNeeded}</strong> role. Ask a System Administrator of your organisation to
          give it to you, then sign in again.
        </Text>
      </Alert>
      <Text size="sm" c="dimmed">
        Error 403 · permission denied
      </Text>
    </Stack>
  );
}

export function NotFoundPage() {
  const home = '/backoffice/settings/api-keys';
  return (
    <Stack gap="sm">
      <Title order={1}>Page not found</Title>
      <Text>
        There is nothing at this address.{' '}
        <Anchor href={home} onClick={linkHandler(home)}>
          Go to API keys
        </Anchor>
      </Text>
    </Stack>
  );
}
