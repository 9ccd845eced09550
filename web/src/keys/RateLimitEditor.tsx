import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../shared/api-client.ts';
import type { ApiKey } from './keys-api.ts';
import { useSetRateLimit } from './rate-limit-api.ts';
import { draftOf, limitOf, rateLimitText, requestsProblem, type RateLimitDraft } from './rate-limit-text.ts';
import { RateLimitInput } from './RateLimitInput.tsx';

/** The key's rate limit in its view: shown, and changed or removed in place (PATCH). */
export function RateLimitEditor({ apiKey }: { apiKey: ApiKey }) {
  const save = useSetRateLimit();
  const [draft, setDraft] = useState<RateLimitDraft | null>(null);
  const serverError = save.error;
  const fieldError = isApiError(serverError)
    ? (serverError.fieldError('rate_limit.requests') ?? serverError.fieldError('rate_limit'))
    : undefined;

  if (draft === null) {
    return (
      <Group gap="sm" align="center">
        <Text size="sm" data-testid="key-rate-limit">
          {rateLimitText(apiKey.rate_limit)}
        </Text>
        <Button
          variant="default"
          size="xs"
          aria-label={`Change the rate limit of ${apiKey.name}`}
          onClick={() => {
            save.reset();
            setDraft(draftOf(apiKey.rate_limit));
          }}
        >
          Change
        </Button>
      </Group>
    );
  }
  const problem = requestsProblem(draft);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    save.mutate({ key: apiKey, limit: limitOf(draft) }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change the rate limit">
      <Stack gap="xs">
        {serverError && !fieldError && (
          <Alert color="red" variant="light" role="alert" title="The limit was not changed">
            {isApiError(serverError) ? serverError.detail : 'Something went wrong. Try again.'}
          </Alert>
        )}
        <RateLimitInput
          draft={draft}
          onChange={setDraft}
          error={problem ?? fieldError}
          description="Empty for no limit. Takes effect at once on every instance."
          autoFocus
        />
        <Group gap="sm">
          <Button type="submit" size="xs" loading={save.isPending}>
            Save limit
          </Button>
          <Button variant="default" size="xs" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
