import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import { FailureAlert } from '../shared/Feedback.tsx';
import { useCreateKey } from './keys-api.ts';
import type { CreatedKey } from './keys-api.ts';
import { CALENDAR_LABELS, earliestExpiryDate, formatDate } from '../shared/dates.ts';
import { latestExpiryAllowed, NAME_MAX, nameProblem, utcDate } from '@contracts';
import { useKeyPolicyContext } from './key-policy-context.ts';
import { draftOf, limitOf, RATE_LIMIT_FIELDS, requestsProblem, type RateLimitDraft } from './rate-limit-text.ts';
import { QuotaInput, RateLimitInput } from './LimitInput.tsx';
import { QUOTA_FIELDS, quotaDraftOf, quotaOf, quotaProblem, type QuotaDraft } from './quota-text.ts';
import { AllowedIpsInput } from './AllowedIpsInput.tsx';
import { allowedIpsOf, ipLineProblems, serverLineProblem } from './allowed-ips-text.ts';
import { FormButtons } from '../shared/FormButtons.tsx';

type Props = { opened: boolean; onClose: () => void; onCreated: (created: CreatedKey) => void };

/** Name, optional expiry date, rate limit, quota and allowed addresses; server field errors land on their fields. */
export function CreateKeyDialog({ opened, onClose, onCreated }: Props) {
  const create = useCreateKey();
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const [name, setName] = useState('');
  const [expiresAt, setExpiresAt] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [rateLimit, setRateLimit] = useState<RateLimitDraft>(draftOf(null));
  const [quota, setQuota] = useState<QuotaDraft>(quotaDraftOf(null));
  const [allowedIps, setAllowedIps] = useState('');

  const clear = () => {
    setName('');
    setExpiresAt(null);
    setRateLimit(draftOf(null));
    setQuota(quotaDraftOf(null));
    setAllowedIps('');
    setTouched(false);
    create.reset();
  };
  const close = () => {
    clear();
    onClose();
  };
  const earliest = earliestExpiryDate(new Date());
  // The key policy's expiry rules, shown before the server would refuse the key for them.
  const policy = useKeyPolicyContext();
  const latest = policy ? latestExpiryAllowed(policy, utcDate(new Date())) : null;
  const expiryRequired = policy !== undefined && (policy.require_expiry || latest !== null);
  const trimmed = name.trim();
  // The server's own rule (length, control characters); only the empty case gets a friendlier word.
  const localError = !trimmed ? 'Give the key a name.' : (nameProblem(trimmed) ?? undefined);
  const serverError = create.error;
  const nameError = (touched && localError) || (isApiError(serverError) ? serverError.fieldError('name') : undefined);
  const expiryError = isApiError(serverError) ? serverError.fieldError('expires_at') : undefined;
  const limitError =
    (touched && requestsProblem(rateLimit)) ||
    (isApiError(serverError) ? serverError.fieldError(...RATE_LIMIT_FIELDS) : undefined);
  const quotaError =
    (touched && quotaProblem(quota)) || (isApiError(serverError) ? serverError.fieldError(...QUOTA_FIELDS) : undefined);
  const ipsError = isApiError(serverError)
    ? serverError.errors
        .filter((error) => error.path.startsWith('allowed_ips'))
        .map((error) => serverLineProblem(allowedIps, error.path, error.message))[0]
    : undefined;
  const otherError =
    serverError && !nameError && !expiryError && !limitError && !quotaError && !ipsError ? serverError : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (localError || requestsProblem(rateLimit) || quotaProblem(quota) || ipLineProblems(allowedIps).length > 0)
      return;
    create.mutate(
      {
        name: trimmed,
        expires_at: expiresAt,
        rate_limit: limitOf(rateLimit),
        quota: quotaOf(quota),
        allowed_ips: allowedIpsOf(allowedIps),
      },
      {
        onSuccess: (created) => {
          // The secret goes to the confirmation dialog only; the mutation forgets it.
          clear();
          onCreated(created);
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Create API key" size={720} fullScreen={narrow} centered>
      <form onSubmit={onSubmit} noValidate>
        {/* Two columns from tablet width up, so that Create is in view without scrolling; each
            field's help under its box, so that the boxes of a row stay level. */}
        <Stack gap="md">
          {otherError && <FailureAlert title="The key was not created" error={otherError} />}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput
              data-autofocus
              label="Name"
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={nameError}
              description={`Where the key is used, e.g. “Crew roster sync”. ${[...name].length}/${NAME_MAX}`}
              inputWrapperOrder={HELP_BELOW}
              maxLength={NAME_MAX + 20}
              autoComplete="off"
            />
            <DatePickerInput
              label="Expires at"
              // Empty means "never" only where the key policy allows a key that never expires.
              placeholder={expiryRequired ? 'Choose a date' : 'Never expires'}
              value={expiresAt}
              onChange={(value) => setExpiresAt(value)}
              minDate={earliest}
              {...(latest ? { maxDate: latest } : {})}
              required={expiryRequired}
              defaultDate={earliest}
              ariaLabels={CALENDAR_LABELS}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear the expiry date' }}
              valueFormat="D MMM YYYY"
              description={
                expiryRequired
                  ? `Required by the key policy${latest ? `, at the latest ${formatDate(latest)}` : ''}. The key stops working at 00:00 UTC on this date.`
                  : 'Optional. The key stops working at 00:00 UTC on this date. Empty: it never expires.'
              }
              inputWrapperOrder={HELP_BELOW}
              error={expiryError}
              popoverProps={{ withinPortal: true }}
            />
            <RateLimitInput
              draft={rateLimit}
              onChange={setRateLimit}
              error={limitError || undefined}
              description="Optional. At most this many requests in each window, over every instance. Empty: no limit."
            />
            <QuotaInput
              draft={quota}
              onChange={setQuota}
              error={quotaError || undefined}
              description="Optional. At most this many accepted requests a day, a month or in total. Empty: no quota."
            />
          </SimpleGrid>
          <AllowedIpsInput
            value={allowedIps}
            onChange={setAllowedIps}
            serverError={ipsError}
            description="Optional. One address or CIDR range per line; requests from anywhere else are refused. Empty: any address."
          />
          <FormButtons submit="Create" pending={create.isPending} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}

const HELP_BELOW: Array<'label' | 'input' | 'description' | 'error'> = ['label', 'input', 'error', 'description'];
