import { Counter, type LabelValues, type Registry } from 'prom-client';

/**
 * Counts and a histogram kept as plain numbers on the request path and handed to the registry only
 * when it is scraped. prom-client hashes the label set on every `inc` and `observe`, which at one
 * key check and one response per request is a visible share of a request (docs/performance.md).
 */

/** A counter by label set: `inc` is a map lookup and an addition; the registry catches up at scrape time. */
export class TalliedCounter<T extends string> {
  private readonly tallies = new Map<string, { labels: LabelValues<T>; count: number; reported: number }>();

  constructor(options: { name: string; help: string; labelNames: readonly T[]; registers: Registry[] }) {
    const tallies = this.tallies;
    new Counter<T>({
      ...options,
      collect() {
        for (const tally of tallies.values()) {
          if (tally.count > tally.reported) this.inc(tally.labels, tally.count - tally.reported);
          tally.reported = tally.count;
        }
      },
    });
  }

  /** `id` names the label set (the caller builds it cheaply); `labels` is asked only for a new one. */
  inc(id: string, labels: () => LabelValues<T>): void {
    const tally = this.tallies.get(id);
    if (tally) tally.count += 1;
    else this.tallies.set(id, { labels: labels(), count: 1, reported: 0 });
  }
}

/** An unlabelled histogram: `observe` finds a bucket among a few and adds one. */
type HistogramOptions = { name: string; help: string; buckets: readonly number[]; registers: Registry[] };

export class TalliedHistogram {
  private readonly counts: number[];
  private sum = 0;

  private readonly options: HistogramOptions;
  constructor(options: HistogramOptions) {
    this.options = options;
    this.counts = new Array<number>(options.buckets.length + 1).fill(0);
    const metric = {
      name: options.name,
      help: options.help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => Promise.resolve(this.snapshot()),
      reset: () => {},
    };
    // The registry needs only name, help, type, aggregator and get() of a metric.
    for (const registry of options.registers)
      registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(value: number): void {
    const { buckets } = this.options;
    let index = 0;
    while (index < buckets.length && value > buckets[index]!) index++;
    this.counts[index]! += 1;
    this.sum += value;
  }

  private snapshot() {
    const { name, help, buckets } = this.options;
    let cumulative = 0;
    const values = this.counts.map((count, index) => {
      cumulative += count;
      return {
        metricName: `${name}_bucket`,
        labels: { le: index < buckets.length ? buckets[index]! : '+Inf' },
        value: cumulative,
      };
    });
    values.push(
      { metricName: `${name}_sum`, labels: {} as { le: number }, value: this.sum },
      { metricName: `${name}_count`, labels: {} as { le: number }, value: cumulative },
    );
    return { name, help, type: 'histogram', aggregator: 'sum', values };
  }
}
