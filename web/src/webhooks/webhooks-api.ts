import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  DeliveryPage,
  DeliveryView,
  RotatedSecret,
  TestDelivery,
  UpdateWebhookInput,
  WebhookList,
  WebhookView,
} from '@contracts';
import { request } from '../shared/api-client.ts';

export type { CreatedWebhook, DeliveryView, WebhookView };

export const webhooksKey = ['webhooks'] as const;
const deliveriesKey = (id: string) => ['webhooks', id, 'deliveries'] as const;
const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  return useQuery({ queryKey: webhooksKey, queryFn: () => request<WebhookList>('GET', '/webhooks') });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    void queryClient.invalidateQueries({ queryKey: id ? deliveriesKey(id) : webhooksKey });
    void queryClient.invalidateQueries({ queryKey: ['audit-events'] });
  };
}

/** The response holds the secret, so the mutation is never kept (`gcTime: 0`). */
export function useCreateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CreateWebhookInput) => request<CreatedWebhook>('POST', '/webhooks', body),
    gcTime: 0,
    onSuccess: () => invalidate(),
  });
}

export function useUpdateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateWebhookInput }) =>
      request<WebhookView>('PATCH', path(id), changes),
    onSettled: () => invalidate(),
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookView) => request<void>('DELETE', path(webhook.id)),
    onSuccess: () => invalidate(),
  });
}

/** Like creation, the answer holds a secret: never cached. */
export function useRotateSecret() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookView) => request<RotatedSecret>('POST', `${path(webhook.id)}/rotate-secret`),
    gcTime: 0,
    onSuccess: () => invalidate(),
  });
}

export function useSendTest() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhook: WebhookView) => request<TestDelivery>('POST', `${path(webhook.id)}/test`),
    onSuccess: (_queued, webhook) => invalidate(webhook.id),
  });
}

/** The newest deliveries; while one is pending the log looks again every two seconds. */
export function useDeliveries(webhookId: string | null) {
  return useQuery({
    queryKey: deliveriesKey(webhookId ?? ''),
    queryFn: () => request<DeliveryPage>('GET', `${path(webhookId!)}/deliveries?limit=50`),
    enabled: webhookId !== null,
    refetchInterval: (query) => (query.state.data?.data.some((each) => each.status === 'pending') ? 2000 : false),
  });
}

export function useRetryDelivery(webhookId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (delivery: DeliveryView) =>
      request<void>('POST', `${path(webhookId)}/deliveries/${encodeURIComponent(delivery.id)}/retry`),
    onSettled: () => invalidate(webhookId),
  });
}
