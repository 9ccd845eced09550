import { setTimeout as sleep } from 'node:timers/promises';
import { withKey } from '../support/keys.ts';
import { clientAddress, type Instance } from '../support/instances.ts';

// How often each watched instance is asked; the measurement's resolution is this plus one request;
// polling faster costs the two cores more than it gains in resolution.
const POLL_MS = 5;
const GIVE_UP_MS = 5_000;

/**
 * Milliseconds from `changedAt` (the change's response on the instance that made it, or the CLI's
 * output) until every one of `watchers` answers `key` with a status `seen` accepts. Each watcher
 * is polled on its own, every ~5 ms, as a client of its own so failures are not throttled.
 */
export async function propagation(
  watchers: Instance[],
  key: string,
  path: string,
  seen: (status: number) => boolean,
  changedAt: number,
): Promise<number> {
  const lags = await Promise.all(watchers.map((watcher) => firstSeen(watcher, key, path, seen, changedAt)));
  return Math.max(...lags);
}

async function firstSeen(
  watcher: Instance,
  key: string,
  path: string,
  seen: (status: number) => boolean,
  changedAt: number,
): Promise<number> {
  const request = withKey(key, `${watcher.url}${path}`, 'header', { 'x-forwarded-for': clientAddress() });
  for (;;) {
    const response = await fetch(request.url, { headers: request.headers });
    const at = performance.now();
    await response.arrayBuffer();
    if (seen(response.status)) return Math.max(0, at - changedAt);
    if (at - changedAt > GIVE_UP_MS)
      throw new Error(
        `${watcher.name} still answers ${response.status} ${Math.round(at - changedAt)} ms after the change`,
      );
    await sleep(POLL_MS);
  }
}

/**
 * The longest commit-to-arrival delay the watchers report for the last change they heard
 * (`airkey_change_feed_lag_seconds`): the feed's own share of a propagation figure, the rest being
 * the read-through and the polling.
 */
export async function feedLag(watchers: Instance[]): Promise<number> {
  const lags = await Promise.all(
    watchers.map(async (watcher) => {
      const text = await (await fetch(`${watcher.url}/metrics`)).text();
      const line = text.split('\n').find((candidate) => candidate.startsWith('airkey_change_feed_lag_seconds '));
      return Number(line?.split(' ')[1] ?? Number.NaN) * 1000;
    }),
  );
  return Math.max(...lags);
}

/** Propagation figures per change type, printed once at the end of the file. */
export class Figures {
  private readonly samples = new Map<string, number[]>();

  add(change: string, ms: number): void {
    const list = this.samples.get(change) ?? [];
    list.push(ms);
    this.samples.set(change, list);
  }

  get size(): number {
    return this.samples.size;
  }

  max(change: string): number {
    return Math.max(...(this.samples.get(change) ?? [0]));
  }

  table(): string {
    const lines = ['change (ms from change response to rejection on every other instance)   n   median    p90     max'];
    for (const [change, list] of this.samples) {
      const sorted = [...list].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      const median =
        sorted.length % 2
          ? sorted[(sorted.length - 1) / 2]!
          : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
      lines.push(
        `${change.padEnd(72)} ${String(sorted.length).padStart(3)} ${median.toFixed(1).padStart(8)} ${at(0.9).toFixed(1).padStart(6)} ${sorted.at(-1)!.toFixed(1).padStart(7)}`,
      );
    }
    return lines.join('\n');
  }
}
