import { Anchor, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTenantUsage, type TopKey, type UsageWindow } from './usage-api.ts';
import { formatCount, requestsOf, WINDOW_LABELS } from './usage-text.ts';
import { UsagePanel } from './UsagePanel.tsx';

/** Requests to every key of the organisation, above the list, with the busiest keys beside it. */
export function TenantUsage({ onOpenKey }: { onOpenKey: (id: string) => void }) {
  const [window, setWindow] = useState<UsageWindow>('7d');
  const usage = useTenantUsage(window);
  return (
    <Paper withBorder p="md">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <UsagePanel
            id="tenant-usage"
            title="Requests to all keys"
            headingOrder={2}
            window={window}
            onWindow={setWindow}
            usage={usage}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {usage.data && <BusiestKeys keys={usage.data.top_keys} window={window} onOpenKey={onOpenKey} />}
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

function BusiestKeys({
  keys,
  window,
  onOpenKey,
}: {
  keys: TopKey[];
  window: UsageWindow;
  onOpenKey: (id: string) => void;
}) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="busiest-keys-heading">
      <Title order={3} size="h5" id="busiest-keys-heading">
        Busiest keys, last {WINDOW_LABELS[window]}
      </Title>
      {keys.length === 0 ? (
        <Text size="sm" c="dimmed">
          No key was used in this period.
        </Text>
      ) : (
        <Stack component="ol" gap={6} style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="busiest-keys">
          {keys.map((key) => (
            <Text
              component="li"
              key={key.id}
              size="sm"
              style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}
            >
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => onOpenKey(key.id)}
                style={{ textAlign: 'left', wordBreak: 'break-word' }}
              >
                {key.name}{' '}
                <Text span size="xs" c="dimmed">
                  {key.hint}
                </Text>
              </Anchor>
              <span
                style={{ whiteSpace: 'nowrap' }}
                title={`${formatCount(key.ok)} accepted, ${formatCount(key.rejected)} rejected`}
              >
                {formatCount(requestsOf(key))}
              </span>
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
