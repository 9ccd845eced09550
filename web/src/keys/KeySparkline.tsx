import { Group, Loader, Text } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { Suspense, useState } from 'react';
import { Sparkline } from './lazy-charts.tsx';
import { useKeyUsage } from './usage-api.ts';
import { formatCount, requestsOf } from './usage-text.ts';

/**
 * Requests in the last 7 days, per day, beside the total. Fetched only once the row scrolls into
 * view: a page of 50 rows asks for the handful on screen, not for every key of the tenant (the
 * tenant-wide call names only the 10 busiest keys, not enough for a list).
 */
export function KeySparkline({ keyId, name }: { keyId: string; name: string }) {
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  // Once seen, always seen: set while rendering (no effect, no extra render pass) the first time.
  if (inViewport && !seen) setSeen(true);
  const usage = useKeyUsage(keyId, '7d', seen);
  const data = usage.data;
  return (
    <Group ref={ref} gap="xs" wrap="nowrap" miw={120} data-testid="key-usage-7d">
      {data ? (
        <>
          {/* Decoration beside the total: hidden from assistive technology, and `inert` so the chart's own keyboard layer takes no tab stop. */}
          <div inert aria-hidden style={{ display: 'flex', width: 64, height: 24 }}>
            <Suspense fallback={null}>
              <Sparkline
                w={64}
                h={24}
                data={data.series.map(requestsOf)}
                curveType="linear"
                color="indigo.6"
                fillOpacity={0.25}
                strokeWidth={1.5}
              />
            </Suspense>
          </div>
          <Text
            size="sm"
            title={`${formatCount(data.total.ok)} accepted, ${formatCount(data.total.rejected)} rejected in the last 7 days`}
          >
            <span data-testid="key-usage-7d-total">{formatCount(requestsOf(data.total))}</span>
            <span className="sr-only"> requests to {name} in the last 7 days</span>
          </Text>
        </>
      ) : usage.isError ? (
        <Text size="sm" c="dimmed">
          —<span className="sr-only">Usage could not be loaded</span>
        </Text>
      ) : (
        <>
          <Loader size="xs" aria-hidden />
          <span className="sr-only">Loading usage</span>
        </>
      )}
    </Group>
  );
}
