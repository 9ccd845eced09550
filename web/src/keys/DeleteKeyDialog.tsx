import { ConfirmDeleteDialog } from '../shared/ConfirmDeleteDialog.tsx';
import { useDeleteKey } from './keys-api.ts';
import type { ApiKey } from './keys-api.ts';
import { useFeedback } from '../shared/Feedback.tsx';

/** Names the key and says plainly that deleting cannot be undone. */
export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const remove = useDeleteKey();
  const notify = useFeedback();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!apiKey) return;
    remove.mutate(apiKey, {
      onSuccess: () => {
        notify('success', 'API key deleted', `“${apiKey.name}” no longer works.`);
        close();
      },
    });
  };
  return (
    <ConfirmDeleteDialog
      opened={apiKey !== null}
      title="Delete API key?"
      failureTitle="The key was not deleted"
      confirmLabel="Delete key"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={confirm}
      onClose={close}
    >
      {apiKey && (
        <>
          Delete <strong>“{apiKey.name}”</strong> ({apiKey.hint})? Every script, service or agent using it stops working
          at once.
        </>
      )}
    </ConfirmDeleteDialog>
  );
}
