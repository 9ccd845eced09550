import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import type { KeyAuthority } from '../keys/keys-api.ts';
import { useDeleteUser, type User } from './users-api.ts';

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
  return (
    <ConfirmDialog
      target={user}
      action={useDeleteUser()}
      title="Delete user?"
      failureTitle="The user was not deleted"
      confirmLabel="Delete user"
      done={(deleted) => ['User deleted', `${deleted.email} can no longer sign in.`]}
      onClose={onClose}
    >
      {(deleted) => (
        <>
          Delete <strong>{deleted.name}</strong> ({deleted.email})? They can no longer sign in.
          {authority !== 'system' && ' Every API key they created is disabled and cannot be enabled again.'}
        </>
      )}
    </ConfirmDialog>
  );
}
