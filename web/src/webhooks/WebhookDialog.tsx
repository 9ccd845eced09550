import { Checkbox, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_TYPES } from '@contracts';
import { isApiError } from '../shared/api-client.ts';
import { FailureAlert } from '../shared/Feedback.tsx';
import { useCreateWebhook, useUpdateWebhook, type CreatedWebhook, type WebhookView } from './webhooks-api.ts';
import { FormButtons } from '../shared/FormButtons.tsx';

type Props = {
  opened: boolean;
  /** The endpoint being edited; null adds a new one. */
  editing: WebhookView | null;
  onClose: () => void;
  onCreated: (created: CreatedWebhook) => void;
};

/** Adds an endpoint, or changes one's URL, description and events; server field errors land on their fields. */
export function WebhookDialog(props: Props) {
  // A fresh form for each endpoint (or for a new one): no state carried between them.
  return props.opened ? <WebhookForm key={props.editing?.id ?? 'new'} {...props} /> : null;
}

function WebhookForm({ editing, onClose, onCreated }: Props) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const [url, setUrl] = useState(editing?.url ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [events, setEvents] = useState<string[]>(editing?.events ?? [...WEBHOOK_EVENT_TYPES]);
  const [touched, setTouched] = useState(false);

  const error = editing ? update.error : create.error;
  const urlError =
    (touched && !url.trim() ? 'Enter the URL that should receive events.' : undefined) ??
    (isApiError(error) && (error.code === 'webhook_url_rejected' ? error.detail : error.fieldError('url')));
  const eventsError =
    (touched && events.length === 0 ? 'Choose at least one event.' : undefined) ??
    (isApiError(error) ? error.errors.find((each) => each.path.startsWith('events'))?.message : undefined);
  const otherError = error && !urlError && !eventsError ? error : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!url.trim() || events.length === 0) return;
    const chosen = WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
    const body = { url: url.trim(), description: description.trim() || null, events: chosen };
    if (editing) {
      update.mutate({ id: editing.id, changes: body }, { onSuccess: onClose });
    } else {
      create.mutate(body, {
        // The secret goes to the secret dialog only; the mutation forgets it.
        onSuccess: (created) => {
          create.reset();
          onCreated(created);
        },
      });
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={editing ? 'Edit webhook endpoint' : 'Add webhook endpoint'}
      size="lg"
      fullScreen={narrow}
      centered
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {otherError && <FailureAlert title="The endpoint was not saved" error={otherError} />}
          <TextInput
            data-autofocus
            label="URL"
            required
            type="url"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            error={urlError || undefined}
            description="An https: address on the public internet, e.g. https://example.com/hooks/airkey"
            autoComplete="off"
            maxLength={2048}
          />
          <TextInput
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            description="Optional: what receives these events."
            maxLength={200}
            autoComplete="off"
          />
          <Checkbox.Group
            label="Events"
            description="Which events this endpoint receives. All are chosen by default."
            value={events}
            onChange={setEvents}
            error={eventsError}
          >
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={type} styles={{ label: { fontFamily: 'monospace' } }} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <FormButtons
            submit={editing ? 'Save' : 'Add endpoint'}
            pending={editing ? update.isPending : create.isPending}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
