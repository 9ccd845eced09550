import { Group, NativeSelect, NumberInput } from '@mantine/core';
import { MAX_RATE_REQUESTS, RATE_WINDOWS, type RateLimitDraft, type RateWindow } from './rate-limit-text.ts';

type Props = {
  draft: RateLimitDraft;
  onChange: (draft: RateLimitDraft) => void;
  error?: string | undefined;
  description?: string;
  autoFocus?: boolean;
};

/** "Rate limit [ 100 ] [ requests per minute ▾ ]": a number (empty for none) and its window, both labelled. */
export function RateLimitInput({ draft, onChange, error, description, autoFocus = false }: Props) {
  return (
    <Group align="flex-start" gap="xs" wrap="wrap">
      <NumberInput
        label="Rate limit"
        placeholder="No limit"
        description={description}
        value={draft.requests}
        onChange={(requests) => onChange({ ...draft, requests })}
        min={1}
        max={MAX_RATE_REQUESTS}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        hideControls
        error={error}
        w={200}
        autoFocus={autoFocus}
      />
      <NativeSelect
        label="Per"
        data={RATE_WINDOWS.map(({ value, label }) => ({ value, label }))}
        value={draft.window}
        onChange={(event) => onChange({ ...draft, window: event.currentTarget.value as RateWindow })}
        w={200}
      />
    </Group>
  );
}
