import { Button, Group, Stack } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { isApiError, type ApiError } from '../shared/api-client.ts';
import { FailureAlert } from '../shared/Feedback.tsx';
import { useUpdateKey, type ApiKey, type KeyChanges } from './keys-api.ts';

type Props<Draft> = {
  apiKey: ApiKey;
  /** The setting as it is now, beside the Change button. */
  current: ReactNode;
  /** More of it below that line (the addresses, one by one). */
  details?: ReactNode;
  /** "the rate limit": names the button ("Change the rate limit of …") and the form. */
  what: string;
  failureTitle: string;
  saveLabel: string;
  /** The form's starting point, from the key as it is. */
  draftOf: (key: ApiKey) => Draft;
  /** False while the draft holds something the server would refuse (the input says what). */
  valid: (draft: Draft) => boolean;
  changesOf: (draft: Draft) => KeyChanges;
  /** The server's word on the field itself, shown on the input rather than above it. */
  fieldError: (error: ApiError, draft: Draft) => string | undefined;
  input: (draft: Draft, setDraft: (draft: Draft) => void, fieldError: string | undefined) => ReactNode;
};

/**
 * One setting of a key in its view: shown with a Change button, then changed or removed in place
 * (PATCH) in a small form that keeps the focus, saves with Enter and says why the server refused.
 */
export function SettingEditor<Draft>({
  apiKey,
  current,
  details,
  what,
  failureTitle,
  saveLabel,
  draftOf,
  valid,
  changesOf,
  fieldError,
  input,
}: Props<Draft>) {
  const save = useUpdateKey();
  const [draft, setDraft] = useState<Draft | null>(null);

  if (draft === null) {
    return (
      <Stack gap={6}>
        <Group gap="sm" align="center">
          {current}
          <Button
            variant="default"
            size="xs"
            aria-label={`Change ${what} of ${apiKey.name}`}
            onClick={() => {
              save.reset();
              setDraft(draftOf(apiKey));
            }}
          >
            Change
          </Button>
        </Group>
        {details}
      </Stack>
    );
  }
  const serverError = save.error;
  const onField = isApiError(serverError) ? fieldError(serverError, draft) : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid(draft)) return;
    save.mutate({ key: apiKey, changes: changesOf(draft) }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Change ${what}`}>
      <Stack gap="xs">
        {serverError && !onField && <FailureAlert title={failureTitle} error={serverError} />}
        {input(draft, setDraft, onField)}
        <Group gap="sm">
          <Button type="submit" size="xs" loading={save.isPending}>
            {saveLabel}
          </Button>
          <Button variant="default" size="xs" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
