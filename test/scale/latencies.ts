/** Response times by label, summarised as n, p50, p99 and max; printed at the end of a file. */
export class Latencies {
  private readonly samples = new Map<string, number[]>();

  add(label: string, ms: number): void {
    const list = this.samples.get(label) ?? [];
    list.push(ms);
    this.samples.set(label, list);
  }

  max(label: string): number {
    return Math.max(...(this.samples.get(label) ?? [0]));
  }

  count(label: string): number {
    return this.samples.get(label)?.length ?? 0;
  }

  p99(label: string): number {
    return quantile(
      [...(this.samples.get(label) ?? [0])].sort((a, b) => a - b),
      0.99,
    );
  }

  table(title: string): string {
    const lines = [`${title.padEnd(64)}    n     p50     p99     max`];
    for (const [label, list] of this.samples) {
      const sorted = [...list].sort((a, b) => a - b);
      const cell = (value: number) => value.toFixed(1).padStart(7);
      lines.push(
        `${label.padEnd(64)} ${String(sorted.length).padStart(4)} ${cell(quantile(sorted, 0.5))} ${cell(quantile(sorted, 0.99))} ${cell(sorted.at(-1)!)}`,
      );
    }
    return lines.join('\n');
  }
}

/** Nearest-rank quantile of sorted samples. */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
