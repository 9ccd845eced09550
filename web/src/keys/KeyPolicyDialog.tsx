import { Modal, NumberInput, Stack, Switch } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { FailureAlert } from '../shared/Feedback.tsx';
import { useUpdateKeyPolicy, type KeyPolicy } from './key-policy-api.ts';
import { FormButtons } from '../shared/FormButtons.tsx';

type Props = { opened: boolean; policy: KeyPolicy; onClose: () => void };

const MAX_DAYS = 3650;
/** An empty field is "none"; anything else must be a whole number of days the server accepts. */
const daysProblem = (value: number | string) =>
  value === '' || (Number.isInteger(value) && Number(value) >= 1 && Number(value) <= MAX_DAYS)
    ? undefined
    : `Use a whole number of days from 1 to ${MAX_DAYS}, or leave it empty.`;
const daysOf = (value: number | string) => (value === '' ? null : Number(value));

/** Changes the four rules at once; the server's field errors land on their fields. */
export function KeyPolicyDialog({ opened, policy, onClose }: Props) {
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  return (
    <Modal opened={opened} onClose={onClose} title="Change key policy" size="lg" fullScreen={narrow} centered>
      {opened && <PolicyForm policy={policy} onDone={onClose} />}
    </Modal>
  );
}

function PolicyForm({ policy, onDone }: { policy: KeyPolicy; onDone: () => void }) {
  const update = useUpdateKeyPolicy();
  const [maxLifetime, setMaxLifetime] = useState<number | string>(policy.max_lifetime_days ?? '');
  const [requireExpiry, setRequireExpiry] = useState(policy.require_expiry);
  const [unusedDays, setUnusedDays] = useState<number | string>(policy.disable_unused_after_days ?? '');
  const [requireIps, setRequireIps] = useState(policy.require_allowed_ips);
  const [touched, setTouched] = useState(false);
  const server = isApiError(update.error) ? update.error : undefined;
  const lifetimeError = (touched && daysProblem(maxLifetime)) || server?.fieldError('max_lifetime_days');
  const unusedError = (touched && daysProblem(unusedDays)) || server?.fieldError('disable_unused_after_days');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (daysProblem(maxLifetime) || daysProblem(unusedDays)) return;
    update.mutate(
      {
        max_lifetime_days: daysOf(maxLifetime),
        require_expiry: requireExpiry,
        disable_unused_after_days: daysOf(unusedDays),
        require_allowed_ips: requireIps,
      },
      { onSuccess: onDone },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {update.error && !lifetimeError && !unusedError ? (
          <FailureAlert title="The key policy was not changed" error={update.error} />
        ) : null}
        <NumberInput
          data-autofocus
          label="Maximum lifetime (days)"
          description="New and rolled keys must expire within this many days. Empty: no maximum."
          placeholder="No maximum"
          value={maxLifetime}
          onChange={setMaxLifetime}
          min={1}
          max={MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          error={lifetimeError}
        />
        <Switch
          label="Require an expiry date on every new key"
          description="A maximum lifetime requires one too."
          checked={requireExpiry}
          onChange={(event) => setRequireExpiry(event.currentTarget.checked)}
        />
        <NumberInput
          label="Disable keys unused for (days)"
          description="A key not used for this long is disabled; a warning event goes out 7 days before. Keys already unused that long are disabled at the next check. Empty: never."
          placeholder="Never"
          value={unusedDays}
          onChange={setUnusedDays}
          min={1}
          max={MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          error={unusedError}
        />
        <Switch
          label="Require an IP allowlist on every new key"
          description="Each new key must list the addresses it may be used from."
          checked={requireIps}
          onChange={(event) => setRequireIps(event.currentTarget.checked)}
        />
        <FormButtons submit="Save policy" pending={update.isPending} onCancel={onDone} />
      </Stack>
    </form>
  );
}
