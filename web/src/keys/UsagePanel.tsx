import { Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ProblemAlert } from '../shared/Feedback.tsx';
import { USAGE_WINDOWS, type Usage, type UsageWindow } from './usage-api.ts';
import { WINDOW_SHORT } from './usage-text.ts';
import { UsageChart } from './UsageChart.tsx';

type Props = {
  id: string;
  title: string;
  headingOrder: 2 | 3;
  window: UsageWindow;
  onWindow: (window: UsageWindow) => void;
  usage: UseQueryResult<Usage>;
  height?: number;
};

/** A titled usage chart with its window picker (24 hours, 7 days, 30 days), loading and failure states. */
export function UsagePanel({ id, title, headingOrder, window, onWindow, usage, height }: Props) {
  const headingId = `${id}-heading`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Title order={headingOrder} size="h4" id={headingId}>
          {title}
        </Title>
        <SegmentedControl
          size="xs"
          aria-label={`${title}: period`}
          value={window}
          onChange={(value) => onWindow(value)}
          data={USAGE_WINDOWS.map((each) => ({ value: each, label: WINDOW_SHORT[each] }))}
        />
      </Group>
      {usage.isPending && (
        <Skeleton height={(height ?? 180) + 56} role="status" aria-label={`Loading ${title.toLowerCase()}`} />
      )}
      {usage.isError && (
        <ProblemAlert error={usage.error} title="Usage could not be loaded" onRetry={() => void usage.refetch()} />
      )}
      {usage.data && (
        <>
          <UsageChart usage={usage.data} id={id} label={title} height={height ?? 180} />
          <Text size="xs" c="dimmed">
            Counted per {usage.data.bucket} (UTC); the last minute or so may not be counted yet.
          </Text>
        </>
      )}
    </Stack>
  );
}
