import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Config } from '../config.ts';
import { InvalidRequestError } from '../shared/errors.ts';
import { startServer } from '../server.ts';
import { stopTracing } from '../telemetry/setup/tracing.ts';

/** `airkey serve [--workers N|auto]`: one process, or a node:cluster of them on PostgreSQL. */
export async function serve(config: Config, workersOption: string, json = false): Promise<void> {
  const workers = workersOption === 'auto' ? availableParallelism() : Number(workersOption);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    throw InvalidRequestError.field('workers', '--workers must be a whole number from 1 to 256, or "auto".');
  }
  if (workers > 1 && !config.databaseUrl) {
    throw InvalidRequestError.field(
      'workers',
      'Several workers need a shared PostgreSQL (set DATABASE_URL): the embedded database belongs to one process.',
    );
  }
  if (workers > 1 && cluster.isPrimary) return superviseWorkers(workers);
  await serveOne(config, json);
}

async function serveOne(config: Config, json: boolean): Promise<void> {
  const server = await startServer(config);
  const { firstStart, url } = server;
  if (json) {
    // One line a script can read: where to connect and, on the first start, how to sign in.
    process.stdout.write(`${JSON.stringify({ url, pid: process.pid, first_start: firstStart ?? null })}\n`);
  } else if (firstStart) {
    const lines = [
      '',
      `  airkey first start: created tenant "Demo Air" (slug ${firstStart.tenantSlug}) with ${firstStart.flights} sample flights.`,
      `  Sign in at ${url}/backoffice/login`,
      `    e-mail:   ${firstStart.email}`,
      firstStart.generatedPassword
        ? `    password: ${firstStart.generatedPassword}   (shown once; set AIRKEY_ADMIN_PASSWORD to choose your own)`
        : '    password: the one in AIRKEY_ADMIN_PASSWORD',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!cluster.isWorker && !json)
    process.stdout.write(`airkey listening on ${url}  (back office: ${url}/backoffice, API docs: ${url}/docs)\n`);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    // Spans still queued are exported (for a moment at most) before the process ends.
    server
      .stop()
      .then(stopTracing)
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

function superviseWorkers(count: number): Promise<void> {
  let stopping = false;
  for (let index = 0; index < count; index++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    process.stderr.write(`airkey: worker ${worker.process.pid} exited (${code}); starting another\n`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    // Counted here: when 'exit' fires, cluster.workers may still list the worker until its
    // 'disconnect', and an empty event loop would end this process with code 13 instead of 0.
    const running = new Set(Object.values(cluster.workers ?? {}).map((worker) => worker!.id));
    if (running.size === 0) process.exit(0);
    cluster.on('exit', (worker) => {
      running.delete(worker.id);
      if (running.size === 0) process.exit(0);
    });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`airkey: ${count} workers on PostgreSQL\n`);
  return new Promise(() => {});
}
