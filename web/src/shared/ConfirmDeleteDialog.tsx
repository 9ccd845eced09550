import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { isApiError } from './api-client.ts';

type Props = {
  opened: boolean;
  title: string;
  /** What is deleted and what follows from it. */
  children: ReactNode;
  failureTitle: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
};

/** A destructive confirmation: names the thing, says it cannot be undone, Cancel has the focus. */
export function ConfirmDeleteDialog({
  opened,
  title,
  children,
  failureTitle,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onClose,
}: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      {opened && (
        <Stack gap="md">
          <Text>{children}</Text>
          <Text fw={600} c="red.8">
            This cannot be undone.
          </Text>
          {error !== null && error !== undefined && (
            <Alert color="red" variant="light" title={failureTitle} role="alert">
              {isApiError(error) ? error.detail : 'Something went wrong. Try again.'}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} data-autofocus>
              Cancel
            </Button>
            <Button color="red.8" onClick={onConfirm} loading={pending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
