import { BarChart } from '@mantine/charts';
import { ColorSwatch, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Usage } from './usage-api.ts';
import { bucketName, chartRows, formatCount, peakOf, requestsOf, SHOWN_OUTCOMES, usageSummary } from './usage-text.ts';

const SERIES = SHOWN_OUTCOMES.map(({ label, color }) => ({ name: label, color }));

type Props = { usage: Usage; id: string; label: string; height?: number };

/**
 * A window of usage three ways: the totals as text (what people read first and tests assert), a
 * stacked bar chart (focusable; arrow keys move between bars, Recharts' accessibility layer), and
 * the same numbers as a table for screen readers.
 */
export function UsageChart({ usage, id, label, height = 180 }: Props) {
  const summary = usageSummary(usage);
  const peak = peakOf(usage.series);
  const description = peak
    ? `${summary} Busiest: ${bucketName(peak.start, usage.bucket)}, ${formatCount(requestsOf(peak))}.`
    : summary;
  return (
    <Stack gap="xs">
      <UsageTotals usage={usage} id={id} />
      <UsageLegend />
      <BarChart
        h={height}
        data={chartRows(usage)}
        dataKey="label"
        type="stacked"
        series={SERIES}
        tickLine="none"
        gridAxis="y"
        withXAxis
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        yAxisProps={{ allowDecimals: false, width: 40 }}
        tooltipAnimationDuration={0}
        barChartProps={{
          title: `${label}: ${summary}`,
          desc: description,
          margin: { top: 0, right: 12, bottom: 0, left: 0 },
        }}
        aria-describedby={`${id}-table`}
        data-testid={`${id}-chart`}
      />
      <VisuallyHidden>
        <Table id={`${id}-table`}>
          <caption>
            {label}, per {usage.bucket}: {summary}
          </caption>
          <thead>
            <tr>
              <th scope="col">{usage.bucket === 'hour' ? 'Hour' : 'Day'}</th>
              {SHOWN_OUTCOMES.map(({ outcome, label }) => (
                <th key={outcome} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {usage.series.map((point) => (
              <tr key={point.start}>
                <th scope="row">{bucketName(point.start, usage.bucket)}</th>
                {SHOWN_OUTCOMES.map(({ outcome }) => (
                  <td key={outcome}>{point[outcome]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </Stack>
  );
}

/** Requests, accepted, rejected, rate limited, over quota and refused for the address, in the window: plain text with test ids. */
export function UsageTotals({ usage, id }: { usage: Usage; id: string }) {
  return (
    <Group gap="lg" wrap="wrap" data-testid={`${id}-totals`}>
      <Total label="Requests" value={requestsOf(usage.total)} testId={`${id}-total`} />
      {SHOWN_OUTCOMES.map(({ outcome, label, testId }) => (
        <Total key={outcome} label={label} value={usage.total[outcome]} testId={`${id}-${testId}`} />
      ))}
    </Group>
  );
}

function Total({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dark.3" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="lg" fw={650} data-testid={testId}>
        {formatCount(value)}
      </Text>
    </Stack>
  );
}

/**
 * The series' colours, in the totals' order, above the chart rather than inside it: a legend
 * drawn inside the chart has a fixed height and, wrapped on a narrow screen, lies over the bars.
 * Hidden from screen readers, which read the same numbers from the table.
 */
function UsageLegend() {
  return (
    <Group gap="sm" aria-hidden data-testid="usage-legend">
      {SHOWN_OUTCOMES.map(({ outcome, label, color }) => (
        <Group key={outcome} gap={6} wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${color.replace('.', '-')})`} size={10} withShadow={false} />
          <Text size="sm">{label}</Text>
        </Group>
      ))}
    </Group>
  );
}
