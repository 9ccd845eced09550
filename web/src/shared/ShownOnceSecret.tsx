import { Alert, Button, CopyButton, Group, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A secret shown for the only time (a new API key, a webhook signing secret): the warning that it
 * will not be shown again, why, and the value selected on focus with a copy button.
 */
export function ShownOnceSecret({
  label,
  value,
  testId,
  note,
  children,
}: {
  label: string;
  value: string;
  testId: string;
  /** Shown between the warning and the value. */
  note?: ReactNode;
  /** Why it cannot be shown again, and what to do with it. */
  children: ReactNode;
}) {
  return (
    <>
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle aria-hidden />}
        title="Copy it now: it will not be shown again"
      >
        {children}
      </Alert>
      {note}
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          data-autofocus
          label={label}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: 1, minWidth: 0 }}
          data-testid={testId}
        />
        <CopyButton value={value}>
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
    </>
  );
}
