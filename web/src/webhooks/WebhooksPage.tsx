import { Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../shared/ConfirmDeleteDialog.tsx';
import { isApiError } from '../shared/api-client.ts';
import { ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { WebhookCard, type WebhookActions } from './WebhookCard.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';
import { WebhookSecretDialog, type ShownSecret } from './WebhookSecretDialog.tsx';
import {
  useDeleteWebhook,
  useRotateSecret,
  useSendTest,
  useUpdateWebhook,
  useWebhooks,
  type WebhookView,
} from './webhooks-api.ts';

const MAX_ENDPOINTS = 10;

/** /backoffice/settings/webhooks: where the tenant's key events are sent, and how that went. */
export function WebhooksPage() {
  const webhooks = useWebhooks();
  const update = useUpdateWebhook();
  const rotate = useRotateSecret();
  const sendTest = useSendTest();
  const remove = useDeleteWebhook();
  const notify = useFeedback();
  const [dialog, setDialog] = useState<{ editing: WebhookView | null } | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [log, setLog] = useState<WebhookView | null>(null);
  const [deleting, setDeleting] = useState<WebhookView | null>(null);
  const failed = (title: string) => (error: unknown) =>
    notify('error', title, isApiError(error) ? error.detail : 'Something went wrong. Try again.');

  const actions: WebhookActions = {
    onToggle: (webhook, enabled) =>
      update.mutate(
        { id: webhook.id, changes: { enabled } },
        {
          onSuccess: () => notify('success', enabled ? 'Endpoint enabled' : 'Endpoint disabled', webhook.url),
          onError: failed('The endpoint was not changed'),
        },
      ),
    onEdit: (webhook) => setDialog({ editing: webhook }),
    onTest: (webhook) =>
      sendTest.mutate(webhook, {
        onSuccess: () => {
          notify('success', 'Test event queued', `A webhook.test event is on its way to ${webhook.url}.`);
          setLog(webhook);
        },
        onError: failed('The test event was not sent'),
      }),
    onDeliveries: setLog,
    onRotate: (webhook) =>
      rotate.mutate(webhook, {
        onSuccess: ({ secret: value }) => {
          rotate.reset();
          setSecret({ title: 'New signing secret', url: webhook.url, secret: value, rotated: true });
        },
        onError: failed('The secret was not rotated'),
      }),
    onDelete: setDeleting,
  };

  const list = webhooks.data?.data;
  const full = (list?.length ?? 0) >= MAX_ENDPOINTS;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>Webhooks</Title>
          <Text c="dark.4" mt={4}>
            airkey sends a signed request to these endpoints when this organisation’s keys change, expire or hit their
            limits. Up to {MAX_ENDPOINTS} endpoints.
          </Text>
        </div>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({ editing: null })}
          disabled={full}
        >
          Add endpoint
        </Button>
      </Group>
      {webhooks.isPending && <Skeleton height={96} role="status" aria-label="Loading webhook endpoints" />}
      {webhooks.isError && (
        <ProblemAlert
          error={webhooks.error}
          title="The webhook endpoints could not be loaded"
          onRetry={() => void webhooks.refetch()}
        />
      )}
      {list && list.length === 0 && <Text>No endpoints yet. Add one to receive key events.</Text>}
      {list && list.length > 0 && (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Webhook endpoints">
          {list.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} actions={actions} />
          ))}
        </Stack>
      )}
      <WebhookDialog
        opened={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
        onCreated={(created) => {
          setDialog(null);
          setSecret({ title: 'Endpoint added', url: created.webhook.url, secret: created.secret, rotated: false });
        }}
      />
      <WebhookSecretDialog shown={secret} onClose={() => setSecret(null)} />
      <DeliveryLog webhook={log} onClose={() => setLog(null)} />
      <ConfirmDeleteDialog
        opened={deleting !== null}
        title="Delete webhook endpoint"
        failureTitle="The endpoint was not deleted"
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting, {
            onSuccess: () => {
              notify('success', 'Endpoint deleted', deleting.url);
              setDeleting(null);
            },
          })
        }
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        {deleting?.url} stops receiving events, and its delivery log is deleted with it.
      </ConfirmDeleteDialog>
    </Stack>
  );
}
