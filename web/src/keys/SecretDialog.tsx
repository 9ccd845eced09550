import { Button, Code, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ShownOnceSecretDialog } from '../shared/ShownOnceSecretDialog.tsx';
import type { CreatedKey } from './keys-api.ts';
import { usageSnippets } from './secret-snippets.ts';

/** The only time the full key is ever shown, after a creation or a roll, with how to use it. */
export function SecretDialog({
  created,
  note,
  onClose,
}: {
  created: CreatedKey | null;
  note?: ReactNode;
  onClose: () => void;
}) {
  const snippets = created ? usageSnippets(window.location.origin, created.secret) : undefined;
  return (
    <ShownOnceSecretDialog
      shown={
        created && { title: 'Your new API key', label: `API key “${created.api_key.name}”`, value: created.secret }
      }
      testId="new-key-secret"
      why="airkey keeps only a fingerprint of this key, so nobody can show it to you later. If you lose it, create a new key and delete this one."
      note={note}
      doneLabel="I have saved the key"
      size="xl"
      fullScreenOnPhone
      onClose={onClose}
    >
      {snippets && (
        <>
          <Title order={3} size="h5">
            How to use it
          </Title>
          <Snippet label="Call the API with the X-API-Key header (recommended)" code={snippets.curl} />
          <Snippet label="Query parameter fallback" code={snippets.query}>
            <Text size="xs" c="dimmed">
              Only for clients that cannot set headers: a key in a URL can end up in browser history, proxy logs and
              shell history.
            </Text>
          </Snippet>
          <Snippet label="MCP client configuration" code={snippets.mcp}>
            <Text size="xs" c="dimmed">
              For AI agents: the MCP server at {window.location.origin}/mcp takes the same key in the same header.
            </Text>
          </Snippet>
        </>
      )}
    </ShownOnceSecretDialog>
  );
}

/** A labelled, copyable block of example code. */
function Snippet({ label, code, children }: { label: string; code: string; children?: ReactNode }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`Copy: ${label}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {children}
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
    </Stack>
  );
}
