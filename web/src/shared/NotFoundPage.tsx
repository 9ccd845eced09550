import { Anchor, Stack, Text, Title } from '@mantine/core';
import { linkHandler } from './router.ts';

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
