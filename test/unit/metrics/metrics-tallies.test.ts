import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TalliedCounter, TalliedHistogram } from '../../../src/metrics/tallies.ts';

const series = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
  );

describe('metrics counted on the request path, reported at scrape time', () => {
  it('reports each label set’s count exactly, scrape after scrape', async () => {
    const registry = new Registry();
    const counter = new TalliedCounter({ name: 'c_total', help: 'h', labelNames: ['outcome'], registers: [registry] });
    for (let i = 0; i < 3; i++) counter.inc('ok', () => ({ outcome: 'ok' }));
    counter.inc('bad', () => ({ outcome: 'bad' }));
    expect(series(await registry.metrics())).toEqual({ 'c_total{outcome="ok"}': 3, 'c_total{outcome="bad"}': 1 });
    counter.inc('ok', () => ({ outcome: 'ok' }));
    expect(series(await registry.metrics())).toEqual({ 'c_total{outcome="ok"}': 4, 'c_total{outcome="bad"}': 1 });
  });

  it('reports a histogram as cumulative buckets with sum and count, in the Prometheus text format', async () => {
    const registry = new Registry();
    const histogram = new TalliedHistogram({
      name: 'd_seconds',
      help: 'h',
      buckets: [0.001, 0.01],
      registers: [registry],
    });
    for (const seconds of [0.0005, 0.001, 0.002, 0.5]) histogram.observe(seconds);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE d_seconds histogram');
    expect(series(text)).toEqual({
      'd_seconds_bucket{le="0.001"}': 2,
      'd_seconds_bucket{le="0.01"}': 3,
      'd_seconds_bucket{le="+Inf"}': 4,
      d_seconds_sum: 0.5035,
      d_seconds_count: 4,
    });
  });
});
