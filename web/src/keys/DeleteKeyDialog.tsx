import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { useDeleteKey, type ApiKey } from './keys-api.ts';

/** Names the key and says plainly that deleting cannot be undone. */
export function DeleteKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  return (
    <ConfirmDialog
      target={apiKey}
      action={useDeleteKey()}
      title="Delete API key?"
      failureTitle="The key was not deleted"
      confirmLabel="Delete key"
      done={(key) => ['API key deleted', `“${key.name}” no longer works.`]}
      onClose={onClose}
    >
      {(key) => (
        <>
          Delete <strong>“{key.name}”</strong> ({key.hint})? Every script, service or agent using it stops working at
          once.
        </>
      )}
    </ConfirmDialog>
  );
}
