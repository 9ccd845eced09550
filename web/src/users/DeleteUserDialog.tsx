import { ConfirmDeleteDialog } from '../shared/ConfirmDeleteDialog.tsx';
import type { KeyAuthority } from '../keys/keys-api.ts';
import type { User } from './users-api.ts';
import { useDeleteUser } from './users-api.ts';
import { useFeedback } from '../shared/Feedback.tsx';

/** Deleting a user under creator authority also disables every key they created: say so first. */
export function DeleteUserDialog({
  user,
  authority,
  onClose,
}: {
  user: User | null;
  authority: KeyAuthority | undefined;
  onClose: () => void;
}) {
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
    <ConfirmDeleteDialog
      opened={user !== null}
      title="Delete user?"
      failureTitle="The user was not deleted"
      confirmLabel="Delete user"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={confirm}
      onClose={close}
    >
      {user && (
        <>
          Delete <strong>{user.name}</strong> ({user.email})? They can no longer sign in.
          {authority !== 'system' && ' Every API key they created is disabled and cannot be enabled again.'}
        </>
      )}
    </ConfirmDeleteDialog>
  );
}
