import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

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
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title="Copy it now: it will not be shown again"
          >
            Your receiver needs this secret to verify that each delivery comes from airkey (the Standard Webhooks
            signature in the webhook-signature header).
            {shown.rotated && ' The previous secret keeps signing as well for 24 hours, so you can switch over.'}
          </Alert>
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              data-autofocus
              label={`Signing secret for ${shown.url}`}
              value={shown.secret}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1, minWidth: 0 }}
              data-testid="webhook-secret"
            />
            <CopyButton value={shown.secret}>
              {({ copied, copy }) => (
                <Button
                  onClick={copy}
                  color={copied ? 'teal.8' : undefined}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  aria-live="polite"
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
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
