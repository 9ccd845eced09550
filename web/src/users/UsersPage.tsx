import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useKeys } from '../keys/keys-api.ts';
import { permissionsOfSession, useSession } from '../session/session-api.ts';
import type { User } from './users-api.ts';
import { useUsers } from './users-api.ts';
import { LoadingRows, ProblemAlert } from '../shared/Feedback.tsx';
import { AddUserDialog } from './AddUserDialog.tsx';
import { DeleteUserDialog } from './DeleteUserDialog.tsx';
import { EditRolesDialog } from './EditRolesDialog.tsx';
import { UsersList } from './UsersList.tsx';
import { SsoSettingsSection } from '../sso/SsoSettingsSection.tsx';

/** /backoffice/users: who may sign in, and with which roles (which also bound their keys). */
export function UsersPage() {
  const session = useSession();
  const self = session.data!.user;
  const canManageKeys = permissionsOfSession(session.data).includes('api_keys:manage');
  const isSystemAdministrator = self.roles.includes('system_administrator');
  const users = useUsers();
  const keys = useKeys(canManageKeys);
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>Users</Title>
          <Text c="dark.4" mt={4}>
            People who can sign in to this back office. Their roles also decide what the API keys they create may do.
          </Text>
        </div>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          Add user
        </Button>
      </Group>
      {users.isPending && <LoadingRows label="Loading users" rows={3} height={48} />}
      {users.isError && (
        <ProblemAlert error={users.error} title="The users could not be loaded" onRetry={() => void users.refetch()} />
      )}
      {users.data && (
        <UsersList
          users={users.data.data}
          selfId={self.id}
          narrow={narrow}
          onEditRoles={setEditing}
          onDelete={setDeleting}
        />
      )}
      {isSystemAdministrator && <SsoSettingsSection />}
      <AddUserDialog
        opened={adding}
        onClose={() => setAdding(false)}
        canGrantSystemAdministrator={isSystemAdministrator}
      />
      <EditRolesDialog
        user={editing}
        onClose={() => setEditing(null)}
        canGrantSystemAdministrator={isSystemAdministrator}
      />
      <DeleteUserDialog user={deleting} authority={keys.data?.authority} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
