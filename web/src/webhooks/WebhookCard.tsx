import { Badge, Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { IconEdit, IconKey, IconList, IconSend, IconTrash } from '@tabler/icons-react';
import { WEBHOOK_EVENT_TYPES } from '@contracts';
import { formatDate } from '../shared/dates.ts';
import type { WebhookView } from './webhooks-api.ts';

export type WebhookActions = {
  onToggle: (webhook: WebhookView, enabled: boolean) => void;
  onEdit: (webhook: WebhookView) => void;
  onTest: (webhook: WebhookView) => void;
  onDeliveries: (webhook: WebhookView) => void;
  onRotate: (webhook: WebhookView) => void;
  onDelete: (webhook: WebhookView) => void;
};

const REASONS = { disabled_by_user: 'Disabled', gone: 'Disabled: the endpoint answered 410 Gone' } as const;

/** One endpoint: where it points, what it receives, and everything one can do with it. */
export function WebhookCard({ webhook, actions }: { webhook: WebhookView; actions: WebhookActions }) {
  const all = webhook.events.length === WEBHOOK_EVENT_TYPES.length;
  const name = webhook.description ?? webhook.url;
  return (
    <Paper withBorder p="md" component="li" aria-label={`Endpoint ${webhook.url}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Text fw={600} ff="monospace" style={{ wordBreak: 'break-all' }}>
              {webhook.url}
            </Text>
            {webhook.description && <Text size="sm">{webhook.description}</Text>}
            <Text size="xs" c="dark.4">
              Added {formatDate(webhook.created_at)}
            </Text>
          </div>
          <Switch
            checked={webhook.enabled}
            onChange={(event) => actions.onToggle(webhook, event.currentTarget.checked)}
            label={webhook.enabled ? 'Enabled' : REASONS[webhook.disabled_reason ?? 'disabled_by_user']}
            aria-label={`Enabled: ${name}`}
            color="teal"
          />
        </Group>
        <Group gap={4} aria-label="Events it receives">
          {all ? (
            <Badge variant="light" color="indigo">
              All events
            </Badge>
          ) : (
            webhook.events.map((type) => (
              <Badge key={type} variant="light" color="indigo" tt="none">
                {type}
              </Badge>
            ))
          )}
        </Group>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} aria-hidden />}
            onClick={() => actions.onTest(webhook)}
            disabled={!webhook.enabled}
            aria-label={`Send test event to ${name}`}
          >
            Send test event
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconList size={14} aria-hidden />}
            onClick={() => actions.onDeliveries(webhook)}
            aria-label={`Deliveries to ${name}`}
          >
            Deliveries
          </Button>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconEdit size={14} aria-hidden />}
            onClick={() => actions.onEdit(webhook)}
            aria-label={`Edit ${name}`}
          >
            Edit
          </Button>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconKey size={14} aria-hidden />}
            onClick={() => actions.onRotate(webhook)}
            aria-label={`Rotate secret of ${name}`}
          >
            Rotate secret
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => actions.onDelete(webhook)}
            aria-label={`Delete ${name}`}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
