import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ApiKey } from '../shared/api-types.ts';

export function DeleteKeyButton({ apiKey, onDelete }: { apiKey: ApiKey; onDelete: (key: ApiKey) => void }) {
  return (
    <Button
      variant="subtle"
      color="red"
      size="xs"
      leftSection={<IconTrash size={16} aria-hidden />}
      aria-label={`Delete ${apiKey.name}`}
      onClick={() => onDelete(apiKey)}
    >
      Delete
    </Button>
  );
}
