import { Text } from '@mantine/core';
import type { ApiKey } from './keys-api.ts';
import { draftOf, limitOf, RATE_LIMIT_FIELDS, rateLimitText, requestsProblem } from './rate-limit-text.ts';
import { RateLimitInput } from './LimitInput.tsx';
import { SettingEditor } from './SettingEditor.tsx';

/** The key's rate limit in its view: shown, and changed or removed in place (PATCH). */
export function RateLimitEditor({ apiKey }: { apiKey: ApiKey }) {
  return (
    <SettingEditor
      apiKey={apiKey}
      what="the rate limit"
      current={
        <Text size="sm" data-testid="key-rate-limit">
          {rateLimitText(apiKey.rate_limit)}
        </Text>
      }
      failureTitle="The limit was not changed"
      saveLabel="Save limit"
      draftOf={(key) => draftOf(key.rate_limit)}
      valid={(draft) => !requestsProblem(draft)}
      changesOf={(draft) => ({ rate_limit: limitOf(draft) })}
      fieldError={(error) => error.fieldError(...RATE_LIMIT_FIELDS)}
      input={(draft, setDraft, fieldError) => (
        <RateLimitInput
          draft={draft}
          onChange={setDraft}
          error={requestsProblem(draft) ?? fieldError}
          description="Empty for no limit. Takes effect at once on every instance."
          autoFocus
          hideLabel
        />
      )}
    />
  );
}
