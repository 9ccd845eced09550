import { Badge, Code, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatInstant } from '../shared/dates.ts';
import { OUTCOMES } from './outcome-text.ts';
import type { RequestLogEntry } from './request-log-api.ts';

export function OutcomeBadge({ entry }: { entry: RequestLogEntry }) {
  const { label, color } = OUTCOMES[entry.outcome];
  return (
    <Badge color={color} variant="light" radius="sm" tt="none" data-testid="request-outcome">
      {entry.status} · {label}
    </Badge>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** One request: everything the log holds about it, the trace id to look it up in the tracing system. */
export function RequestDetail({ entry, onClose }: { entry: RequestLogEntry | null; onClose: () => void }) {
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Request" size="lg">
      {entry && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" data-testid="request-detail">
          <Item label="When">
            <Text size="sm" component="time" dateTime={entry.at}>
              {formatInstant(entry.at)}
            </Text>
          </Item>
          <Item label="Outcome">
            <OutcomeBadge entry={entry} />
          </Item>
          <Item label="Key">
            <Text size="sm">
              {entry.key.name} <Code>{entry.key.hint}</Code>
            </Text>
          </Item>
          <Item label="From address">
            <Text size="sm">{entry.address ?? 'Unknown'}</Text>
          </Item>
          <Item label="Request">
            <Code>{`${entry.method} ${entry.path}`}</Code>
          </Item>
          <Item label="Route">
            <Code>{entry.route}</Code>
          </Item>
          {entry.mcp && (
            <Item label="MCP">
              <Code>{entry.mcp.tool ? `${entry.mcp.method} · ${entry.mcp.tool}` : entry.mcp.method}</Code>
            </Item>
          )}
          <Item label="Duration">
            <Text size="sm">{entry.duration_ms} ms</Text>
          </Item>
          <Item label="Trace id">
            {entry.trace_id ? (
              <Code data-testid="request-trace-id">{entry.trace_id}</Code>
            ) : (
              <Text size="sm" c="dimmed">
                Not traced
              </Text>
            )}
          </Item>
          <Item label="User agent">
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {entry.user_agent ?? 'None sent'}
            </Text>
          </Item>
        </SimpleGrid>
      )}
    </Modal>
  );
}
