import { Progress, Stack, Text } from '@mantine/core';
import type { ApiKey } from './keys-api.ts';
import { quotaPercent, quotaUsedText } from './quota-text.ts';

/**
 * Used against the quota as a bar and in words ("1,234 of 10,000 this month"); a screen reader
 * hears the same words as the bar's value. `used` is as of the last usage flush (seconds).
 */
export function QuotaBar({ apiKey, testId }: { apiKey: ApiKey; testId: string }) {
  const quota = apiKey.quota;
  if (!quota) {
    return (
      <Text size="sm" c="dimmed" data-testid={testId}>
        No quota
      </Text>
    );
  }
  const percent = quotaPercent(quota);
  const text = quotaUsedText(quota);
  return (
    <Stack gap={4} miw={120}>
      <Progress.Root
        size="sm"
        role="progressbar"
        aria-label={`Quota used by ${apiKey.name}`}
        aria-valuemin={0}
        aria-valuemax={quota.requests}
        aria-valuenow={Math.min(quota.used, quota.requests)}
        aria-valuetext={text}
      >
        <Progress.Section
          value={percent}
          color={percent >= 100 ? 'red.8' : percent >= 80 ? 'orange.8' : 'indigo.7'}
          withAria={false}
        />
      </Progress.Root>
      <Text size="xs" data-testid={testId}>
        {text}
      </Text>
    </Stack>
  );
}
