import { Alert, Button, CopyButton, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * Ten recovery codes, the only time they are shown: the parent keeps them in state and drops
 * them when this closes. A click outside does not close it, so they are not lost by accident.
 */
export function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Modal
      opened={codes !== null}
      onClose={onClose}
      title="Your recovery codes"
      size="lg"
      closeOnClickOutside={false}
      centered
    >
      {codes && (
        <Stack gap="md">
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title="Save them now: they will not be shown again"
          >
            Each code signs you in once in place of your second factor, if you lose your phone or passkey. Keep them
            apart from both, in a password manager or on paper. Making new codes stops these.
          </Alert>
          <SimpleGrid
            component="ul"
            cols={{ base: 1, xs: 2 }}
            spacing="xs"
            aria-label="Recovery codes"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {codes.map((code) => (
              <Text component="li" key={code} ff="monospace" size="lg" fw={600}>
                {code}
              </Text>
            ))}
          </SimpleGrid>
          <Group justify="space-between">
            <CopyButton value={codes.join('\n')}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  onClick={copy}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  aria-live="polite"
                >
                  {copied ? 'Copied' : 'Copy all codes'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-autofocus>
              I have saved the codes
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
