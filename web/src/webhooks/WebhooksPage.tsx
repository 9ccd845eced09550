import { Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { isApiError } from '../shared/api-client.ts';
import { ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { ShownOnceSecretDialog } from '../shared/ShownOnceSecretDialog.tsx';
import { DeliveryLog } from './DeliveryLog.tsx';
import { WebhookCard, type WebhookActions } from './WebhookCard.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';
import {
  useDeleteWebhook,
  useRotateSecret,
  useSendTest,
  useUpdateWebhook,
  useWebhooks,
  type WebhookView,
} from './webhooks-api.ts';

const MAX_ENDPOINTS = 10;

type ShownSecret = { title: string; url: string; secret: string; rotated: boolean };

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
      <ShownOnceSecretDialog
        shown={secret && { title: secret.title, label: `Signing secret for ${secret.url}`, value: secret.secret }}
        testId="webhook-secret"
        why={
          <>
            Your receiver needs this secret to verify that each delivery comes from airkey (the Standard Webhooks
            signature in the webhook-signature header).
            {secret?.rotated && ' The previous secret keeps signing as well for 24 hours, so you can switch over.'}
          </>
        }
        doneLabel="I have saved the secret"
        size="lg"
        onClose={() => setSecret(null)}
      >
        <Text size="sm" c="dark.4">
          Verify with the standardwebhooks package: new Webhook(secret).verify(body, headers).
        </Text>
      </ShownOnceSecretDialog>
      <DeliveryLog webhook={log} onClose={() => setLog(null)} />
      <ConfirmDialog
        target={deleting}
        action={remove}
        title="Delete webhook endpoint"
        failureTitle="The endpoint was not deleted"
        confirmLabel="Delete endpoint"
        done={(webhook) => ['Endpoint deleted', webhook.url]}
        onClose={() => setDeleting(null)}
      >
        {(webhook) => `${webhook.url} stops receiving events, and its delivery log is deleted with it.`}
      </ConfirmDialog>
    </Stack>
  );
}
