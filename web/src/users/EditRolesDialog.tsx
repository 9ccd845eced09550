import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Role } from './roles.ts';
import type { User } from './users-api.ts';
import { useUpdateUser } from './users-api.ts';
import { useFeedback, FailureAlert } from '../shared/Feedback.tsx';
import { RoleChecks } from './RoleChecks.tsx';

type Props = { user: User | null; onClose: () => void; canGrantSystemAdministrator: boolean };

/** Roles decide what the user's keys may do from the next request on; the dialog says so. */
export function EditRolesDialog({ user, onClose, canGrantSystemAdministrator }: Props) {
  const update = useUpdateUser();
  const notify = useFeedback();
  const [roles, setRoles] = useState<Role[]>(user?.roles ?? []);
  // A different user opened: start from their roles, set while rendering rather than in an effect.
  const [rolesOf, setRolesOf] = useState(user);
  if (user !== rolesOf) {
    setRolesOf(user);
    setRoles(user?.roles ?? []);
  }
  const close = () => {
    update.reset();
    onClose();
  };
  const save = () => {
    if (!user) return;
    update.mutate(
      { id: user.id, roles },
      {
        onSuccess: () => {
          notify('success', 'Roles saved', `${user.email} and the keys they created now have these roles.`);
          close();
        },
      },
    );
  };
  return (
    <Modal opened={user !== null} onClose={close} title="Change roles" centered>
      {user && (
        <Stack gap="md">
          <Text size="sm">
            Roles of <strong>{user.email}</strong>. Keys this user created act with these roles from their next request.
          </Text>
          {update.error && <FailureAlert title="The roles were not changed" error={update.error} />}
          <RoleChecks value={roles} onChange={setRoles} canGrantSystemAdministrator={canGrantSystemAdministrator} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={save} loading={update.isPending}>
              Save roles
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
