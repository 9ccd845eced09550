import { Button, Group } from '@mantine/core';
import type { User } from '../shared/api-types.ts';

type Props = { user: User; isSelf: boolean; onEditRoles: (user: User) => void; onDelete: (user: User) => void };

export function UserActions({ user, isSelf, onEditRoles, onDelete }: Props) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => onEditRoles(user)} aria-label={`Change roles of ${user.email}`}>
        Roles
      </Button>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => onDelete(user)}
        disabled={isSelf}
        title={isSelf ? 'You cannot delete yourself' : undefined}
        aria-label={isSelf ? `Delete ${user.email} (not possible for yourself)` : `Delete ${user.email}`}
      >
        Delete
      </Button>
    </Group>
  );
}
