import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { isApiError } from '../api/client.ts';
import { useDeleteKey } from '../api/keys.ts';
import type { ApiKey } from '../api/types.ts';
import { useFeedback } from '../components/Feedback.tsx';

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
    <Modal opened={apiKey !== null} onClose={close} title="Delete API key?" centered>
      {apiKey && (
        <Stack gap="md">
          <Text>
            Delete <strong>“{apiKey.name}”</strong> ({apiKey.hint})? Every script, service or agent using it stops working at once.
          </Text>
          <Text fw={600} c="red.8">
            This cannot be undone.
          </Text>
          {remove.error && (
            <Alert color="red" variant="light" title="The key was not deleted" role="alert">
              {isApiError(remove.error) ? remove.error.detail : 'Something went wrong. Try again.'}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red.8" onClick={confirm} loading={remove.isPending}>
              Delete key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
