import { Badge, Button, List, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { ProblemAlert, useFeedback } from '../shared/Feedback.tsx';
import { formatInstant } from '../shared/dates.ts';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { isApiError } from '../shared/api-client.ts';
import { useDeliveries, useRetryDelivery, type DeliveryView, type WebhookView } from './webhooks-api.ts';

const STATUS_COLOR = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** One endpoint's deliveries, newest first: each attempt's answer or error, and "Resend". */
export function DeliveryLog({ webhook, onClose }: { webhook: WebhookView | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={webhook !== null}
      onClose={onClose}
      title={webhook ? `Deliveries to ${webhook.url}` : ''}
      size="xl"
      fullScreen={narrow}
      centered
    >
      {webhook && <Deliveries webhook={webhook} />}
    </Modal>
  );
}

function Deliveries({ webhook }: { webhook: WebhookView }) {
  const deliveries = useDeliveries(webhook.id);
  const retry = useRetryDelivery(webhook.id);
  const notify = useFeedback();
  const resend = (delivery: DeliveryView) =>
    retry.mutate(delivery, {
      onSuccess: () => notify('success', 'Sending again', `The ${delivery.event_type} event is sent again now.`),
      onError: (error) =>
        notify('error', 'Could not send again', isApiError(error) ? error.detail : 'Something went wrong.'),
    });

  if (deliveries.isPending) return <Skeleton height={80} role="status" aria-label="Loading deliveries" />;
  if (deliveries.isError) {
    return (
      <ProblemAlert
        error={deliveries.error}
        title="The deliveries could not be loaded"
        onRetry={() => void deliveries.refetch()}
      />
    );
  }
  const rows = deliveries.data.data;
  if (rows.length === 0) return <Text>No deliveries yet. Send a test event to see one here.</Text>;
  return (
    <ResponsiveTable
      dense
      minWidth={640}
      caption="Newest first. Each attempt shows the receiver's answer, or why none came."
      rows={rows}
      rowKey={(delivery) => delivery.id}
      rowProps={() => ({ 'data-testid': 'delivery-row' })}
      columns={[
        {
          header: 'Event',
          cell: (delivery) => (
            <>
              <Text ff="monospace" size="sm">
                {delivery.event_type}
              </Text>
              <Text size="xs" c="dark.4">
                {formatInstant(delivery.created_at)}
              </Text>
            </>
          ),
        },
        {
          header: 'Status',
          cell: (delivery) => (
            <Stack gap={2}>
              <Badge color={STATUS_COLOR[delivery.status]} variant="light">
                {delivery.status}
              </Badge>
              {delivery.next_attempt_at && (
                <Text size="xs" c="dark.4">
                  Next attempt {formatInstant(delivery.next_attempt_at)}
                </Text>
              )}
            </Stack>
          ),
        },
        { header: 'Attempts', cell: (delivery) => <Attempts delivery={delivery} /> },
        {
          header: 'Action',
          cell: (delivery) => (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={() => resend(delivery)}
              aria-label={`Resend ${delivery.event_type} of ${formatInstant(delivery.created_at)}`}
            >
              Resend
            </Button>
          ),
        },
      ]}
    />
  );
}

function Attempts({ delivery }: { delivery: DeliveryView }) {
  if (delivery.attempts.length === 0) return <Text size="sm">None yet</Text>;
  return (
    <List size="sm" spacing={2}>
      {delivery.attempts.map((attempt, index) => (
        <List.Item key={`${attempt.at}-${index}`}>
          {attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'no answer')}
          {attempt.status_code !== null && attempt.error ? ` (${attempt.error})` : ''} · {formatInstant(attempt.at)} ·{' '}
          {Math.round(attempt.duration_ms)} ms
        </List.Item>
      ))}
    </List>
  );
}
