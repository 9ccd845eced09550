import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { roleLabel } from './roles.ts';
import type { User } from './users-api.ts';

type Props = {
  users: User[];
  selfId: string;
  narrow: boolean;
  onEditRoles: (user: User) => void;
  onDelete: (user: User) => void;
};

/** A table on wide screens, cards on narrow ones. */
export function UsersList({ users, selfId, narrow, onEditRoles, onDelete }: Props) {
  const name = (user: User) => (
    <>
      {user.name}
      {user.id === selfId && ' (you)'}
    </>
  );
  const actions = (user: User) => (
    <UserActions user={user} isSelf={user.id === selfId} onEditRoles={onEditRoles} onDelete={onDelete} />
  );
  return (
    <ResponsiveTable
      label="Users"
      rows={users}
      rowKey={(user) => user.id}
      narrow={narrow}
      columns={[
        { header: 'Name', cell: name, td: { fw: 600 } },
        { header: 'E-mail', cell: (user) => user.email },
        { header: 'Roles', cell: (user) => <UserRoles roles={user.roles} /> },
        { header: 'Actions', hidden: true, cell: actions },
      ]}
      card={(user) => (
        <Stack gap="xs">
          <div>
            <Text fw={600}>{name(user)}</Text>
            <Text size="sm" c="dark.4" style={{ wordBreak: 'break-all' }}>
              {user.email}
            </Text>
          </div>
          <UserRoles roles={user.roles} />
          {actions(user)}
        </Stack>
      )}
    />
  );
}

function UserRoles({ roles }: { roles: readonly string[] }) {
  if (roles.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No roles
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge
          key={role}
          variant="light"
          color={role === 'system_administrator' ? 'indigo' : 'gray'}
          radius="sm"
          tt="none"
        >
          {roleLabel(role)}
        </Badge>
      ))}
    </Group>
  );
}

type ActionProps = { user: User; isSelf: boolean; onEditRoles: (user: User) => void; onDelete: (user: User) => void };

/** Change roles, delete: a user cannot delete themselves, and the button says why. */
function UserActions({ user, isSelf, onEditRoles, onDelete }: ActionProps) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button
        size="xs"
        variant="default"
        onClick={() => onEditRoles(user)}
        aria-label={`Change roles of ${user.email}`}
      >
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
