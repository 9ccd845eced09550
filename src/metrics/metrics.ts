import { Counter, Gauge, Registry } from 'prom-client';
import { TalliedCounter, TalliedHistogram } from './tallies.ts';
import { monotonicClock } from '../shared/clock.ts';

/** Observes one key check: its outcome (`ok` or the rejection reason) and how long it took. */
export type OutcomeObserver = { observe(outcome: string, seconds: number): void };

/** What the metrics read at scrape time; nothing here is updated on the hot path. */
export type MetricSources = {
  keyCache: { readonly stats: { hits: number; misses: number; evictions: number }; readonly size: number };
  changes: {
    readonly lastLagMs: number;
    readonly listening: boolean;
    readonly leaseValidUntil: number;
    readonly lastConfirmation: { waitedMs: number } | undefined;
  };
};

// Key checks answer from memory in microseconds; a database read takes milliseconds.
const KEY_CHECK_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/**
 * The Prometheus metrics of one services instance, in a registry of its own (never the global
 * default registry: tests run several instances in one process). What a request updates is counted
 * in plain numbers (src/metrics/tallies.ts) and reaches the registry at scrape time.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly keyChecks: TalliedCounter<'outcome'>;
  private readonly keyCheckSeconds: TalliedHistogram;
  private readonly requests: TalliedCounter<'method' | 'route' | 'status'>;
  private readonly backgroundFailures: Counter<'task'>;

  /** Passed to KeyCheck: one count and one histogram observation per check. */
  readonly keyCheck: OutcomeObserver = {
    observe: (outcome, seconds) => {
      this.keyChecks.inc(outcome, () => ({ outcome }));
      this.keyCheckSeconds.observe(seconds);
    },
  };

  /** One failed run of a background task (FailureStreak counts every one); 0 declares the task. */
  backgroundFailed(task: string, runs = 1): void {
    this.backgroundFailures.inc({ task }, runs);
  }

  constructor() {
    const registers = [this.registry];
    this.keyChecks = new TalliedCounter({
      name: 'airkey_key_checks_total',
      help: 'API key checks by outcome (ok or the rejection reason).',
      labelNames: ['outcome'],
      registers,
    });
    this.keyCheckSeconds = new TalliedHistogram({
      name: 'airkey_key_check_duration_seconds',
      help: 'Time to check one API key, cache or database.',
      buckets: KEY_CHECK_BUCKETS,
      registers,
    });
    this.requests = new TalliedCounter({
      name: 'airkey_http_requests_total',
      help: 'HTTP requests by route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });

    this.backgroundFailures = new Counter({
      name: 'airkey_background_failures_total',
      help: 'Failed runs of background tasks (usage flushes), by task; each failed run is retried.',
      labelNames: ['task'],
      registers,
    });
  }

  /** The key cache and the change feed, read at scrape time: watched once both exist. */
  watch({ keyCache, changes }: MetricSources): void {
    const registers = [this.registry];
    monotonic(
      registers,
      'airkey_key_cache_hits_total',
      'Key checks answered from the in-process cache.',
      () => keyCache.stats.hits,
    );
    monotonic(
      registers,
      'airkey_key_cache_misses_total',
      'Key checks that had to read the database.',
      () => keyCache.stats.misses,
    );
    monotonic(
      registers,
      'airkey_key_cache_evictions_total',
      'Cache entries dropped because a change made them stale.',
      () => keyCache.stats.evictions,
    );
    sampled(registers, 'airkey_key_cache_entries', 'Entries in the key cache.', () => keyCache.size);
    sampled(
      registers,
      'airkey_change_feed_listening',
      '1 while this instance is subscribed to the change feed; without it the lease lapses within 1 s and the cache is bypassed.',
      () => (changes.listening ? 1 : 0),
    );
    sampled(
      registers,
      'airkey_change_feed_lag_seconds',
      'Commit-to-arrival delay of the last change heard from another instance.',
      () => changes.lastLagMs / 1000,
    );
    sampled(
      registers,
      'airkey_instance_lease_valid',
      '1 while this instance holds its lease and may answer from its cache (docs/keys.md (Revocation)).',
      () => (monotonicClock() < changes.leaseValidUntil ? 1 : 0),
    );
    sampled(
      registers,
      'airkey_revocation_wait_seconds',
      "How long this instance's last write waited for the other instances to apply it.",
      () => (changes.lastConfirmation?.waitedMs ?? 0) / 1000,
    );
  }

  /** The request log's writer (docs/request-log.md): what it dropped, wrote and holds, read at scrape time. */
  watchRequestLog(writer: { readonly dropped: number; readonly written: number; readonly pending: number }): void {
    const registers = [this.registry];
    monotonic(
      registers,
      'airkey_request_log_dropped_total',
      'Request log entries dropped because the buffer was full (the database slow or down); requests were not affected.',
      () => writer.dropped,
    );
    monotonic(
      registers,
      'airkey_request_log_written_total',
      'Request log entries written by this instance.',
      () => writer.written,
    );
    sampled(
      registers,
      'airkey_request_log_pending',
      'Request log entries held, not yet written.',
      () => writer.pending,
    );
  }

  /** Called once per response. `route` is the route pattern, never the raw URL (unbounded, may hold a key). */
  observeRequest(method: string, route: string, status: number): void {
    this.requests.inc(`${method} ${status} ${route}`, () => ({ method, route, status }));
  }
}

/** A counter whose value lives elsewhere (the cache's own tallies), brought up to date at scrape time. */
function monotonic(registers: Registry[], name: string, help: string, read: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers,
    collect() {
      const value = read();
      if (value > reported) this.inc(value - reported);
      reported = value;
    },
  });
}

function sampled(registers: Registry[], name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers,
    collect() {
      this.set(read());
    },
  });
}
