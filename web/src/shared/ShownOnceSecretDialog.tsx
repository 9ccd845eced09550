import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput, type ModalProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** What the dialog shows: the secret and what to call it. Null keeps the dialog closed. */
export type ShownOnce = { title: string; label: string; value: string };

type Props = {
  shown: ShownOnce | null;
  testId: string;
  /** Why it cannot be shown again, and what to do with it. */
  why: ReactNode;
  /** Shown between the warning and the value. */
  note?: ReactNode;
  /** How to use it, below the value. */
  children?: ReactNode;
  doneLabel: string;
  size: ModalProps['size'];
  /** The whole screen on a phone, for long instructions. */
  fullScreenOnPhone?: boolean;
  onClose: () => void;
};

/**
 * The only time a secret is shown (a new API key, a webhook signing secret): the warning that it
 * will not be shown again, why, and the value selected on focus with a copy button. The parent
 * holds the secret in state and drops it when this closes; nothing else (query cache, storage,
 * URL) ever sees it. A click outside does not close it: the secret would be lost.
 */
export function ShownOnceSecretDialog({
  shown,
  testId,
  why,
  note,
  children,
  doneLabel,
  size,
  fullScreenOnPhone = false,
  onClose,
}: Props) {
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={shown?.title}
      size={size}
      fullScreen={fullScreenOnPhone && narrow}
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
            {why}
          </Alert>
          {note}
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              data-autofocus
              label={shown.label}
              value={shown.value}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1, minWidth: 0 }}
              data-testid={testId}
            />
            <CopyButton value={shown.value}>
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
          {children}
          <Group justify="flex-end">
            <Button onClick={onClose}>{doneLabel}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
