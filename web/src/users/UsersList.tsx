import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { ResponsiveTable } from '../shared/ResponsiveTable.tsx';
import { roleLabel } from './roles.ts';
import type { ListedUser as User } from './users-api.ts';

/** What a user's row offers: roles and delete for every manager; sign-in resets for System Administrators. */
export type UserActionHandlers = {
  onEditRoles: (user: User) => void;
  onDelete: (user: User) => void;
  onEndSessions?: ((user: User) => void) | undefined;
  onResetSecondFactors?: ((user: User) => void) | undefined;
};

type Props = { users: User[]; selfId: string; narrow: boolean } & UserActionHandlers;

/** A table on wide screens, cards on narrow ones. */
export function UsersList({ users, selfId, narrow, ...handlers }: Props) {
  const name = (user: User) => (
    <>
      {user.name}
      {user.id === selfId && ' (you)'}
    </>
  );
  const actions = (user: User) => <UserActions user={user} isSelf={user.id === selfId} {...handlers} />;
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
        { header: 'Second factor', cell: (user) => <SecondFactorStatus on={user.second_factor} /> },
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
          <Group gap="xs">
            <UserRoles roles={user.roles} />
            <SecondFactorStatus on={user.second_factor} />
          </Group>
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

function SecondFactorStatus({ on }: { on: boolean }) {
  return on ? (
    <Badge variant="light" color="teal" radius="sm" tt="none">
      Second factor on
    </Badge>
  ) : (
    <Badge variant="outline" color="gray.7" radius="sm" tt="none">
      Password only
    </Badge>
  );
}

type ActionProps = { user: User; isSelf: boolean } & UserActionHandlers;

/** Change roles, delete: a user cannot delete themselves, and the button says why. */
function UserActions({ user, isSelf, onEditRoles, onDelete, onEndSessions, onResetSecondFactors }: ActionProps) {
  return (
    <Group gap="xs" justify="flex-end" wrap="wrap">
      {onEndSessions && !isSelf && (
        <Button
          size="xs"
          variant="default"
          onClick={() => onEndSessions(user)}
          aria-label={`End sessions of ${user.email}`}
        >
          End sessions
        </Button>
      )}
      {onResetSecondFactors && user.second_factor && (
        <Button
          size="xs"
          variant="default"
          onClick={() => onResetSecondFactors(user)}
          aria-label={`Reset second factors of ${user.email}`}
        >
          Reset second factors
        </Button>
      )}
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
