import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { formatInstant } from '../shared/dates.ts';
import { isApiError } from '../shared/api-client.ts';
import { useSetAllowedIps } from './allowed-ips-api.ts';
import {
  allowedIpsOf,
  allowedIpsSummary,
  allowedIpsText,
  ipLineProblems,
  serverLineProblem,
} from './allowed-ips-text.ts';
import { AllowedIpsInput } from './AllowedIpsInput.tsx';
import type { ApiKey } from './keys-api.ts';

/** The key's allowlist in its view: shown, and changed or removed in place (PATCH). */
export function AllowedIpsEditor({ apiKey }: { apiKey: ApiKey }) {
  const save = useSetAllowedIps();
  const [draft, setDraft] = useState<string | null>(null);
  const serverError = save.error;
  const fieldError =
    isApiError(serverError) && draft !== null
      ? serverError.errors
          .filter((error) => error.path.startsWith('allowed_ips'))
          .map((error) => serverLineProblem(draft, error.path, error.message))[0]
      : undefined;

  if (draft === null) {
    const list = apiKey.allowed_ips;
    return (
      <Stack gap={6}>
        <Group gap="sm" align="center">
          <Text size="sm" data-testid="key-allowed-ips-summary">
            {allowedIpsSummary(list)}
          </Text>
          <Button
            variant="default"
            size="xs"
            aria-label={`Change the allowed IP addresses of ${apiKey.name}`}
            onClick={() => {
              save.reset();
              setDraft(allowedIpsText(list));
            }}
          >
            Change
          </Button>
        </Group>
        {list && (
          <Group gap={6} data-testid="key-allowed-ips">
            {list.map((entry) => (
              <Code key={entry}>{entry}</Code>
            ))}
          </Group>
        )}
      </Stack>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (ipLineProblems(draft).length > 0) return;
    save.mutate({ key: apiKey, allowedIps: allowedIpsOf(draft) }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change the allowed IP addresses">
      <Stack gap="xs">
        {serverError && !fieldError && (
          <Alert color="red" variant="light" role="alert" title="The addresses were not changed">
            {isApiError(serverError) ? serverError.detail : 'Something went wrong. Try again.'}
          </Alert>
        )}
        <AllowedIpsInput
          value={draft}
          onChange={setDraft}
          serverError={fieldError}
          description="One address or CIDR range per line; empty for any address. Takes effect at once on every instance."
          autoFocus
        />
        <Group gap="sm">
          <Button type="submit" size="xs" loading={save.isPending}>
            Save addresses
          </Button>
          <Button variant="default" size="xs" onClick={() => setDraft(null)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The last address a request was refused from for its address, and when; "Never" otherwise. */
export function LastRefused({ apiKey }: { apiKey: ApiKey }) {
  if (!apiKey.last_refused_ip || !apiKey.last_refused_at) {
    return (
      <Text size="sm" c="dimmed" data-testid="key-last-refused">
        Never
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" data-testid="key-last-refused">
        <Code>{apiKey.last_refused_ip}</Code>
      </Text>
      <Text size="xs" c="dimmed" component="time" dateTime={apiKey.last_refused_at}>
        {formatInstant(apiKey.last_refused_at)}
      </Text>
    </Stack>
  );
}
