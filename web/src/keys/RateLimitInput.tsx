import { LimitInput } from './LimitInput.tsx';
import { RATE_WINDOWS, type RateLimitDraft } from './rate-limit-text.ts';

type Props = {
  draft: RateLimitDraft;
  onChange: (draft: RateLimitDraft) => void;
  error?: string | undefined;
  description?: string;
  autoFocus?: boolean;
};

/** "Rate limit [ 100 ] [ requests per minute ▾ ]": how fast, empty for no limit. */
export function RateLimitInput({ draft, onChange, ...rest }: Props) {
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
