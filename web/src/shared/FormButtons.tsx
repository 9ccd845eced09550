import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = { submit: ReactNode; pending: boolean; disabled?: boolean; onCancel: () => void };

/** The end of every dialog's form: Cancel, then the action, which Enter in a field also submits. */
export function FormButtons({ submit, pending, disabled = false, onCancel }: Props) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={pending} disabled={disabled}>
        {submit}
      </Button>
    </Group>
  );
}
