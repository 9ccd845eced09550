import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ShownOnceSecret } from '../shared/ShownOnceSecret.tsx';

export type ShownSecret = { title: string; url: string; secret: string; rotated: boolean };

/**
 * The only time a signing secret is shown, after creation or rotation. The parent holds it in
 * state and drops it when this closes; nothing else (query cache, storage, URL) ever sees it.
 */
export function WebhookSecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={shown?.title}
      size="lg"
      closeOnClickOutside={false}
      centered
    >
      {shown && (
        <Stack gap="md">
          <ShownOnceSecret label={`Signing secret for ${shown.url}`} value={shown.secret} testId="webhook-secret">
            Your receiver needs this secret to verify that each delivery comes from airkey (the Standard Webhooks
            signature in the webhook-signature header).
            {shown.rotated && ' The previous secret keeps signing as well for 24 hours, so you can switch over.'}
          </ShownOnceSecret>
          <Text size="sm" c="dark.4">
            Verify with the standardwebhooks package: new Webhook(secret).verify(body, headers).
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>I have saved the secret</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
