import { Client } from 'undici';
import { withKey } from '../support/keys.ts';
import { clientAddress, waitFor, type Instance } from '../support/instances.ts';

/**
 * Connections pinned to the workers of one `airkey serve --workers N` (all on one port): each
 * worker is told apart by the pid on its request log lines (the cluster runs with LOG_LEVEL=info),
 * matched by a client address used once. A keep-alive connection stays with the worker that
 * accepted it, so a probe on it reaches that worker and no other; the log shows that it did.
 */
export type WorkerConnection = { worker: number; client: Client };
export type WorkerAnswer = { worker: number; status: number; loggedBy: number };

type RequestLine = { pid: number; ip: string; status: number; msg: string };

function loggedBy(cluster: Instance, ip: string): RequestLine | undefined {
  for (const line of cluster.output().split('\n')) {
    if (!line.includes(`"ip":"${ip}"`)) continue;
    const parsed = JSON.parse(line) as RequestLine;
    if (parsed.msg === 'request') return parsed;
  }
  return undefined;
}

/** Sends `key` on `client` as a client of its own; returns the status and the worker's log line for it. */
async function ask(cluster: Instance, client: Client, key: string, path: string): Promise<RequestLine> {
  const ip = clientAddress();
  const request = withKey(key, `${cluster.url}${path}`, 'header', { 'x-forwarded-for': ip });
  const { pathname, search } = new URL(request.url);
  const response = await client.request({ method: 'GET', path: pathname + search, headers: request.headers });
  await response.body.dump();
  let line: RequestLine | undefined;
  // Request lines are written asynchronously: wait for this one.
  await waitFor(() => (line = loggedBy(cluster, ip)) !== undefined, {
    timeoutMs: 5_000,
    what: `the log line of ${ip}`,
  });
  if (line!.status !== response.statusCode)
    throw new Error(`log says ${line!.status}, the client got ${response.statusCode}`);
  return line!;
}

/** Opens connections until each of `workers` holds one (round-robin: a few suffice); `key` must be accepted. */
export async function connectionPerWorker(
  cluster: Instance,
  workers: number[],
  key: string,
  path: string,
): Promise<WorkerConnection[]> {
  const pinned = new Map<number, Client>();
  for (let attempt = 0; attempt < 20 && pinned.size < workers.length; attempt++) {
    const client = new Client(cluster.url, { pipelining: 1, keepAliveTimeout: 120_000, keepAliveMaxTimeout: 120_000 });
    const line = await ask(cluster, client, key, path);
    if (line.status !== 200) throw new Error(`worker ${line.pid} answered ${line.status} for a live key`);
    if (pinned.has(line.pid) || !workers.includes(line.pid)) await client.close();
    else pinned.set(line.pid, client);
  }
  if (pinned.size < workers.length) throw new Error(`only workers ${[...pinned.keys()].join(', ')} took a connection`);
  return [...pinned].map(([worker, client]) => ({ worker, client }));
}

/** Fires `key` on every pinned connection at once; each answer names the worker whose log line it has. */
export function askEveryWorker(
  cluster: Instance,
  connections: WorkerConnection[],
  key: string,
  path: string,
): Promise<WorkerAnswer[]> {
  return Promise.all(
    connections.map(async ({ worker, client }) => {
      const line = await ask(cluster, client, key, path);
      return { worker, status: line.status, loggedBy: line.pid };
    }),
  );
}
