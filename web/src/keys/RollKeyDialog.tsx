import { Modal, Radio, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { FailureAlert } from '../shared/Feedback.tsx';
import type { ApiKey } from './keys-api.ts';
import { useKeyPolicyContext } from './key-policy-context.ts';
import { NewExpiryInput, useNewExpiry } from './NewExpiryInput.tsx';
import { useRollKey, type RolledKey, type RollOverlap } from './roll-api.ts';
import { FormButtons } from '../shared/FormButtons.tsx';

const OVERLAPS: { value: RollOverlap; label: string; description: string }[] = [
  {
    value: 'none',
    label: 'None',
    description: 'The old key stops working now. For a key that leaked, or one nothing uses yet.',
  },
  { value: '1h', label: '1 hour', description: 'Enough to swap the key in one place you control.' },
  { value: '24h', label: '24 hours', description: 'Time to update a few services and deploy them.' },
  { value: '7d', label: '7 days', description: 'For keys spread across teams or partners.' },
];

type Props = { apiKey: ApiKey | null; onClose: () => void; onRolled: (rolled: RolledKey) => void };

/** Roll = a new key replaces this one; the overlap is how long the old key keeps working. */
export function RollKeyDialog({ apiKey, onClose, onRolled }: Props) {
  const roll = useRollKey();
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const close = () => {
    roll.reset();
    onClose();
  };
  return (
    <Modal opened={apiKey !== null} onClose={close} title="Roll API key" size="lg" fullScreen={narrow} centered>
      {apiKey && <RollForm key={apiKey.id} apiKey={apiKey} roll={roll} onCancel={close} onRolled={onRolled} />}
    </Modal>
  );
}

type FormProps = {
  apiKey: ApiKey;
  roll: ReturnType<typeof useRollKey>;
  onCancel: () => void;
  onRolled: (rolled: RolledKey) => void;
};

function RollForm({ apiKey, roll, onCancel, onRolled }: FormProps) {
  // A disabled key works for nobody, so no overlap is the sensible default; else a day.
  const [overlap, setOverlap] = useState<RollOverlap>(apiKey.enabled ? '24h' : 'none');
  // The successor keeps this key's expiry, unless the key policy would refuse it: then ask for one.
  const expiry = useNewExpiry(useKeyPolicyContext(), apiKey);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!expiry.ready()) return;
    roll.mutate(
      { key: apiKey, overlap, expiresAt: expiry.value },
      {
        onSuccess: (rolled) => {
          // The secret goes to the one-time dialog only; the mutation forgets it.
          roll.reset();
          onRolled(rolled);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text>
          Rolling <strong>“{apiKey.name}”</strong> ({apiKey.hint}) creates a new key with the same name, shown to you
          once. Choose how long the old key keeps working alongside it, so you can replace it everywhere it is used;
          then it is refused and deleted.
        </Text>
        {!apiKey.enabled && (
          <Text size="sm" c="dimmed">
            This key is disabled: it stays refused during any overlap.
          </Text>
        )}
        <Radio.Group label="Overlap" value={overlap} onChange={(value) => setOverlap(value)} required>
          <Stack gap="sm" mt="xs">
            {OVERLAPS.map((option) => (
              <Radio
                key={option.value}
                value={option.value}
                label={option.label}
                description={option.description}
                data-autofocus={option.value === overlap ? true : undefined}
              />
            ))}
          </Stack>
        </Radio.Group>
        {expiry.needed && <NewExpiryInput expiry={expiry} serverError={roll.error} />}
        {roll.error && !(expiry.needed && isApiError(roll.error) && roll.error.fieldError('expires_at')) && (
          <FailureAlert title="The key was not rolled" error={roll.error} />
        )}
        <FormButtons submit="Roll key" pending={roll.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
