import { Paper, Stack, Table, Text } from '@mantine/core';
import type { User } from '../shared/api-types.ts';
import { UserActions } from './UserActions.tsx';
import { UserRoles } from './UserRoles.tsx';

type Props = { users: User[]; selfId: string; narrow: boolean; onEditRoles: (user: User) => void; onDelete: (user: User) => void };

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
