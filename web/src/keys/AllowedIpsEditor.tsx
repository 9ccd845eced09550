import { Code, Group, Stack, Text } from '@mantine/core';
import { formatInstant } from '../shared/dates.ts';
import {
  allowedIpsOf,
  allowedIpsSummary,
  allowedIpsText,
  ipLineProblems,
  serverLineProblem,
} from './allowed-ips-text.ts';
import { AllowedIpsInput } from './AllowedIpsInput.tsx';
import type { ApiKey } from './keys-api.ts';
import { SettingEditor } from './SettingEditor.tsx';

/** The key's allowlist in its view: shown, and changed or removed in place (PATCH). */
export function AllowedIpsEditor({ apiKey }: { apiKey: ApiKey }) {
  const list = apiKey.allowed_ips;
  return (
    <SettingEditor
      apiKey={apiKey}
      what="the allowed IP addresses"
      current={
        <Text size="sm" data-testid="key-allowed-ips-summary">
          {allowedIpsSummary(list)}
        </Text>
      }
      details={
        list && (
          <Group gap={6} data-testid="key-allowed-ips">
            {list.map((entry) => (
              <Code key={entry}>{entry}</Code>
            ))}
          </Group>
        )
      }
      failureTitle="The addresses were not changed"
      saveLabel="Save addresses"
      draftOf={(key) => allowedIpsText(key.allowed_ips)}
      valid={(draft) => ipLineProblems(draft).length === 0}
      changesOf={(draft) => ({ allowed_ips: allowedIpsOf(draft) })}
      fieldError={(error, draft) =>
        error.errors
          .filter((each) => each.path.startsWith('allowed_ips'))
          .map((each) => serverLineProblem(draft, each.path, each.message))[0]
      }
      input={(draft, setDraft, fieldError) => (
        <AllowedIpsInput
          value={draft}
          onChange={setDraft}
          serverError={fieldError}
          description="One address or CIDR range per line; empty for any address. Takes effect at once on every instance."
          autoFocus
          hideLabel
        />
      )}
    />
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
