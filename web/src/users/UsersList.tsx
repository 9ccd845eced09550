import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
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
  if (narrow) {
    return (
      <Stack component="ul" gap="sm" aria-label="Users" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {users.map((user) => (
          <Paper component="li" key={user.id} withBorder p="md">
            <Stack gap="xs">
              <div>
                <Text fw={600}>
                  {user.name}
                  {user.id === selfId && ' (you)'}
                </Text>
                <Text size="sm" c="dark.4" style={{ wordBreak: 'break-all' }}>
                  {user.email}
                </Text>
              </div>
              <UserRoles roles={user.roles} />
              <UserActions user={user} isSelf={user.id === selfId} onEditRoles={onEditRoles} onDelete={onDelete} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="Users">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">E-mail</Table.Th>
          <Table.Th scope="col">Roles</Table.Th>
          <Table.Th scope="col">
            <span className="sr-only">Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((user) => (
          <Table.Tr key={user.id}>
            <Table.Td fw={600}>
              {user.name}
              {user.id === selfId && ' (you)'}
            </Table.Td>
            <Table.Td>{user.email}</Table.Td>
            <Table.Td>
              <UserRoles roles={user.roles} />
            </Table.Td>
            <Table.Td>
              <UserActions user={user} isSelf={user.id === selfId} onEditRoles={onEditRoles} onDelete={onDelete} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
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
