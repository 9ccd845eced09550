import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FailureAlert, useFeedback } from './Feedback.tsx';

/** The part of a TanStack mutation the dialog drives: any `useMutation` result taking the target fits. */
type Action<Target> = {
  mutate: (target: Target, options: { onSuccess: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
};

type Props<Target> = {
  /** What the action would be done to; null keeps the dialog closed. */
  target: Target | null;
  action: Action<Target>;
  title: string;
  /** What it is done to and what follows from it. */
  children: (target: Target) => ReactNode;
  /** Said in bold after it. */
  warning?: string;
  confirmLabel: string;
  failureTitle: string;
  /** The message once it is done: a title and a line. */
  done: (target: Target) => [string, string];
  onClose: () => void;
};

/**
 * A confirmation before something that cannot be taken back (delete, reset): names the thing,
 * says it cannot be undone, Cancel has the focus; a refusal is shown in place, success in a
 * message, and the dialog closes.
 */
export function ConfirmDialog<Target>({
  target,
  action,
  title,
  children,
  warning = 'This cannot be undone.',
  confirmLabel,
  failureTitle,
  done,
  onClose,
}: Props<Target>) {
  const notify = useFeedback();
  const close = () => {
    action.reset();
    onClose();
  };
  const confirm = () => {
    if (target === null) return;
    action.mutate(target, {
      onSuccess: () => {
        notify('success', ...done(target));
        close();
      },
    });
  };
  return (
    <Modal opened={target !== null} onClose={close} title={title} centered>
      {target !== null && (
        <Stack gap="md">
          <Text>{children(target)}</Text>
          <Text fw={600} c="red.8">
            {warning}
          </Text>
          {action.error !== null && action.error !== undefined && (
            <FailureAlert title={failureTitle} error={action.error} />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirm} loading={action.isPending}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
