import { DatePickerInput } from '@mantine/dates';
import { useState } from 'react';
import { expiryViolations, latestExpiryAllowed, utcDate, type KeyPolicy } from '@contracts';
import { isApiError } from '../shared/api-client.ts';
import { CALENDAR_LABELS, earliestExpiryDate } from '../shared/dates.ts';
import type { ApiKey } from './keys-api.ts';

/**
 * Whether a roll of `key` needs a new expiry (the key policy would refuse the one it has), the
 * dates allowed, and the date chosen. The server judges by the same rule (src/keys/policy/key-policy.ts).
 */
export function useNewExpiry(policy: KeyPolicy | undefined, key: ApiKey) {
  const [value, setValue] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const today = utcDate(new Date());
  const broken = policy ? expiryViolations(policy, key.expires_at, today) : [];
  const latestByPolicy = policy ? latestExpiryAllowed(policy, today) : null;
  // A roll never extends a key's life: the old expiry is a bound too.
  const latest = [latestByPolicy, key.expires_at].filter((d): d is string => d !== null).sort()[0] ?? null;
  return {
    needed: broken.length > 0,
    reason: broken[0]?.message,
    value: broken.length > 0 ? value : null,
    setValue,
    latest,
    problem: touched && broken.length > 0 && !value ? 'Choose the new key’s expiry date.' : undefined,
    /** False (and the problem shown) while a needed date is missing. */
    ready: () => {
      setTouched(true);
      return broken.length === 0 || value !== null;
    },
  };
}

type Props = { expiry: ReturnType<typeof useNewExpiry>; serverError: unknown };

export function NewExpiryInput({ expiry, serverError }: Props) {
  const earliest = earliestExpiryDate(new Date());
  const server = isApiError(serverError) ? serverError.fieldError('expires_at') : undefined;
  return (
    <DatePickerInput
      label="New expiry date"
      required
      placeholder="Choose a date"
      value={expiry.value}
      onChange={(value) => expiry.setValue(value)}
      minDate={earliest}
      {...(expiry.latest ? { maxDate: expiry.latest } : {})}
      defaultDate={earliest}
      ariaLabels={CALENDAR_LABELS}
      valueFormat="D MMM YYYY"
      description={`${expiry.reason ?? ''} The new key stops working at 00:00 UTC on this date.`}
      error={expiry.problem ?? server}
      popoverProps={{ withinPortal: true }}
      data-testid="roll-new-expiry"
    />
  );
}
