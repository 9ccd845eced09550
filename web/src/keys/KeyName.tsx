import { Anchor, Badge, Code, Group, Stack, Text } from '@mantine/core';
import { formatInstant } from '../shared/dates.ts';
import { expiresSoonText, isRetiring, retiresInText } from './key-times.ts';
import type { ApiKey } from './keys-api.ts';
import { useKeyPolicyContext } from './key-policy-context.ts';
import { outsidePolicyReasons } from './key-policy-text.ts';

type Props = { apiKey: ApiKey; now: Date; onOpen: (key: ApiKey) => void };

/**
 * Name (opens the key's own view), badges for what needs attention (expired, leaked, disabled as
 * unused, expiring soon), why it is outside the tenant's key policy, the hint (`ask_…abcd`, which tells keys apart without the secret), and a rolled key's
 * countdown to retirement with the exact instant.
 */
export function KeyName({ apiKey, now, onOpen }: Props) {
  const soon = expiresSoonText(apiKey, now);
  const leaked = !apiKey.enabled && apiKey.disabled_reason === 'leaked';
  const unused = !apiKey.enabled && apiKey.disabled_reason === 'unused';
  const outside = outsidePolicyReasons(useKeyPolicyContext(), apiKey);
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Anchor
          component="button"
          type="button"
          fw={600}
          c="dark.8"
          onClick={() => onOpen(apiKey)}
          aria-haspopup="dialog"
          style={{ wordBreak: 'break-word', textAlign: 'left' }}
        >
          {apiKey.name}
        </Anchor>
        {apiKey.status === 'expired' && (
          <Badge color="red" variant="light" radius="sm">
            Expired
          </Badge>
        )}
        {leaked && (
          <Badge color="red" variant="light" radius="sm">
            Leaked
          </Badge>
        )}
        {unused && (
          <Badge color="gray" variant="light" radius="sm" tt="none">
            Disabled: unused
          </Badge>
        )}
        {soon && (
          <Badge color="yellow" variant="light" radius="sm" tt="none">
            {soon}
          </Badge>
        )}
      </Group>
      <Code c="dark.4" style={{ alignSelf: 'flex-start' }} aria-label={`Hint ${apiKey.hint}`}>
        {apiKey.hint}
      </Code>
      {outside.length > 0 && (
        <Text size="xs" c="var(--mantine-color-orange-light-color)" fw={600} data-testid="outside-policy">
          Outside the key policy: {outside.join('; ')}
        </Text>
      )}
      {apiKey.retires_at && <RetiresIn retiresAt={apiKey.retires_at} now={now} retiring={isRetiring(apiKey, now)} />}
    </Stack>
  );
}

function RetiresIn({ retiresAt, now, retiring }: { retiresAt: string; now: Date; retiring: boolean }) {
  const instant = formatInstant(retiresAt);
  return (
    <Text
      size="xs"
      c={retiring ? 'var(--mantine-color-orange-light-color)' : 'dimmed'}
      fw={600}
      data-testid="retires-in"
    >
      <time dateTime={retiresAt} title={`Stops working at ${instant}`}>
        {retiresInText(retiresAt, now)}
      </time>
      <Text span size="xs" c="dimmed" fw={400}>
        {' '}
        · {instant}
      </Text>
    </Text>
  );
}
