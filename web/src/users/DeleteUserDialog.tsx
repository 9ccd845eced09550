import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { isApiError } from '../api/client.ts';
import type { KeyAuthority, User } from '../api/types.ts';
import { useDeleteUser } from '../api/users.ts';
import { useFeedback } from '../components/Feedback.tsx';

/** Deleting a user under creator authority also disables every key they created: say so first. */
export function DeleteUserDialog({ user, authority, onClose }: { user: User | null; authority: KeyAuthority | undefined; onClose: () => void }) {
  const remove = useDeleteUser();
  const notify = useFeedback();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!user) return;
    remove.mutate(user, {
      onSuccess: () => {
        notify('success', 'User deleted', `${user.email} can no longer sign in.`);
        close();
      },
    });
  };
  return (
    <Modal opened={user !== null} onClose={close} title="Delete user?" centered>
      {user && (
        <Stack gap="md">
          <Text>
            Delete <strong>{user.name}</strong> ({user.email})? They can no longer sign in.
            {authority !== 'system' && ' Every API key they created is disabled and cannot be enabled again.'}
          </Text>
          <Text fw={600} c="red.8">
            This cannot be undone.
          </Text>
          {remove.error && (
            <Alert color="red" variant="light" title="The user was not deleted" role="alert">
              {isApiError(remove.error) ? remove.error.detail : 'Something went wrong. Try again.'}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirm} loading={remove.isPending}>
              Delete user
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
