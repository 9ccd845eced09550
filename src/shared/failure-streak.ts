/** How a background task (a write-behind flush) reports each run that did some work. */
export type RunReport = {
  failed(error: unknown): void;
  succeeded(): void;
};

/** Where a streak is told: a warning and a count, and a note when the task works again. */
export type StreakSink = {
  /** At the first failure of a streak only: a flush retried every second must not flood the log. */
  warn(task: string, error: unknown): void;
  /** The first success after a streak, with how many runs failed in it. */
  recovered(task: string, failures: number): void;
  /** Every failure, for the metrics. */
  count(task: string): void;
};

/**
 * A failure is never silent: it is counted every time and logged once per streak of failures,
 * so an outage shows as one warning and a rising counter, not one line per retry.
 */
export class FailureStreak implements RunReport {
  private failures = 0;

  private readonly task: string;
  private readonly sink: StreakSink;
  constructor(task: string, sink: StreakSink) {
    this.task = task;
    this.sink = sink;
  }

  failed(error: unknown): void {
    this.sink.count(this.task);
    if (this.failures++ === 0) this.sink.warn(this.task, error);
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.sink.recovered(this.task, this.failures);
    this.failures = 0;
  }
}
