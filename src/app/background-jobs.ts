/**
 * Work that runs beside the server, off every request's path: started in the order given, stopped
 * in the reverse order (the last one started is the first one stopped, so a job never outlives
 * what it depends on).
 */
export type BackgroundJob = {
  name: string;
  start(): void | Promise<void>;
  stop?(): void | Promise<void>;
};

export class BackgroundJobs {
  private readonly jobs: readonly BackgroundJob[];
  constructor(jobs: readonly BackgroundJob[]) {
    this.jobs = jobs;
  }

  async start(): Promise<void> {
    for (const job of this.jobs) await job.start();
  }

  async stop(): Promise<void> {
    for (const job of [...this.jobs].reverse()) await job.stop?.();
  }
}

/**
 * A job that runs some tasks every `intervalMs`. Each task runs on its own: one that fails is
 * reported with its name and the others still run; none waits for another.
 */
export function everyInterval(
  name: string,
  intervalMs: number,
  tasks: Record<string, () => Promise<unknown>>,
  onError: (task: string, error: unknown) => void,
): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  return {
    name,
    start() {
      timer = setInterval(() => {
        for (const [task, run] of Object.entries(tasks)) run().catch((error: unknown) => onError(task, error));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
