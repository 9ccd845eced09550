import { Group, NativeSelect, NumberInput } from '@mantine/core';
import { MAX_REQUESTS, type Requests } from './limit-draft.ts';
import { QUOTA_PERIODS, type QuotaDraft } from './quota-text.ts';
import { RATE_WINDOWS, type RateLimitDraft } from './rate-limit-text.ts';

type Props<Per extends string> = {
  label: string;
  perLabel: string;
  placeholder: string;
  options: ReadonlyArray<{ value: Per; label: string }>;
  requests: Requests;
  per: Per;
  onChange: (requests: Requests, per: Per) => void;
  error?: string | undefined;
  description?: string;
  autoFocus?: boolean;
  /** The number's label for screen readers only: where a heading above already says what it is. */
  hideLabel?: boolean;
};

/**
 * "Rate limit [ 100 ] [ requests per minute ▾ ]", "Quota [ 10,000 ] [ requests a month ▾ ]": a
 * number (empty for none) and what it counts over, on one line at any width, under one label (the
 * choice names itself for screen readers), the error and description below, so that two of these
 * side by side keep their boxes level.
 */
export function LimitInput<Per extends string>({
  label,
  perLabel,
  placeholder,
  options,
  requests,
  per,
  onChange,
  error,
  description,
  autoFocus = false,
  hideLabel = false,
}: Props<Per>) {
  return (
    <NumberInput
      {...(hideLabel ? { 'aria-label': label } : { label })}
      placeholder={placeholder}
      description={description}
      inputWrapperOrder={['label', 'input', 'error', 'description']}
      value={requests}
      onChange={(value) => onChange(value, per)}
      min={1}
      max={MAX_REQUESTS}
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator=","
      hideControls
      error={error}
      autoFocus={autoFocus}
      inputContainer={(number) => (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <div style={{ flex: '2 1 0', minWidth: 0 }}>{number}</div>
          <NativeSelect
            aria-label={perLabel}
            data={options.map(({ value, label: text }) => ({ value, label: text }))}
            value={per}
            onChange={(event) => onChange(requests, event.currentTarget.value as Per)}
            style={{ flex: '3 1 0', minWidth: 0 }}
          />
        </Group>
      )}
    />
  );
}

type DraftProps<Draft> = {
  draft: Draft;
  onChange: (draft: Draft) => void;
  error?: string | undefined;
  description?: string;
  autoFocus?: boolean;
  hideLabel?: boolean;
};

/** "Rate limit [ 100 ] [ requests per minute ▾ ]": how fast, empty for no limit. */
export function RateLimitInput({ draft, onChange, ...rest }: DraftProps<RateLimitDraft>) {
  return (
    <LimitInput
      label="Rate limit"
      perLabel="Per"
      placeholder="No limit"
      options={RATE_WINDOWS}
      requests={draft.requests}
      per={draft.window}
      onChange={(requests, window) => onChange({ requests, window })}
      {...rest}
    />
  );
}

/** "Quota [ 10,000 ] [ requests a month ▾ ]": how much, empty for no quota. */
export function QuotaInput({ draft, onChange, ...rest }: DraftProps<QuotaDraft>) {
  return (
    <LimitInput
      label="Quota"
      perLabel="Period"
      placeholder="No quota"
      options={QUOTA_PERIODS}
      requests={draft.requests}
      per={draft.period}
      onChange={(requests, period) => onChange({ requests, period })}
      {...rest}
    />
  );
}
