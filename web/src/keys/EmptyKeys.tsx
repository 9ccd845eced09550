import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';

export function EmptyKeys({ onCreate }: { onCreate: () => void }) {
  return (
    <Paper withBorder p="xl">
      <Stack align="center" gap="sm" ta="center">
        <IconKey size={40} aria-hidden color="var(--mantine-color-indigo-7)" />
        <Title order={2} size="h3">
          No API keys yet
        </Title>
        <Text maw={520} c="dark.4">
          An API key lets a script, a service or an AI agent read this organisation’s flight data through the API and the MCP server.
          You see each key once, when you create it.
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onCreate}>
          Create API key
        </Button>
      </Stack>
    </Paper>
  );
}
