import { generateSecret } from '../../src/keys/format/secret.ts';
import { memoryAfterGc, type MemoryFigures } from './heap-probe.ts';
import { ADMIN, start, type Server } from './soak-server.ts';

/**
 * The soak: two `airkey serve` processes on one PostgreSQL, mixed key traffic (valid, unknown,
 * revoked) and back-office churn (create, roll, disable, delete). Counts 5xx, wrong answers and
 * RSS. Used, short, by soak.test.ts and, long, by `npm run test:soak` (soak-long.ts).
 *
 * A key check has one right answer: 200 for a live key, 401 for an unknown key or one revoked
 * before the request was sent (no instance may accept it once the revoking response has arrived,
 * docs/keys.md (Revocation)). Only a request that overlapped a change to its key may get either.
 * Any other status (429, 5xx, ...) is a wrong answer.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Keys (live and disabled) the churn keeps in the tenant, well under MAX_KEYS_PER_TENANT (1,000). */
const MAX_ROWS = 200;

export type SoakFigures = {
  seconds: number;
  requests: number;
  churn: number;
  statuses: Record<string, number>;
  fiveXx: number;
  wrong: string[];
  /** Each instance's heap after a forced full GC, and its RSS then, after warm-up and at the end. */
  memory: Array<{ instance: string; warm: MemoryFigures; end: MemoryFigures; heapGrowthMb: number }>;
};

type Revoked = { at: number; on: string };
type Reply = { status: number; body: { secret: string; api_key: { id: string } } };

/** Whether `secret` is live and no change to it is under way. */
type Settled = (secret: string) => boolean;

/** What a key check must have answered, or undefined when the request overlapped a change to its key. */
function rightAnswer(
  secret: string,
  known: { pooled: boolean; sentAt: number; liveAtSend: boolean },
  settled: Settled,
  revoked: Map<string, Revoked>,
): 200 | 401 | undefined {
  if (!known.pooled) return 401; // generated for this request: unknown
  const gone = revoked.get(secret);
  if (gone && gone.at <= known.sentAt) return 401;
  if (known.liveAtSend && settled(secret)) return 200;
  return undefined;
}

export async function runSoak(options: {
  databaseUrl: string;
  seconds: number;
  warmupSeconds: number;
  concurrency?: number;
  log?: (line: string) => void;
}): Promise<SoakFigures> {
  const log = options.log ?? (() => {});
  const servers = [await start('A', options.databaseUrl), await start('B', options.databaseUrl)];
  try {
    let clients = 0;
    const client = () => (clients++, `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`);
    const signIn = await fetch(`${servers[0]!.url}/backoffice/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client() },
      body: JSON.stringify(ADMIN),
    });
    if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.status}`);
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('airkey_session='))!
      .split(';')[0]!;
    const figures: SoakFigures = {
      seconds: options.seconds,
      requests: 0,
      churn: 0,
      statuses: {},
      fiveXx: 0,
      wrong: [],
      memory: [],
    };
    const count = (status: number) => {
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
      if (status >= 500) figures.fiveXx++;
    };
    const backOffice = async (on: Server, method: string, path: string, body?: unknown): Promise<Reply> => {
      const response = await fetch(`${on.url}/backoffice/api${path}`, {
        method,
        headers: { cookie, 'x-csrf-token': csrf, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      count(response.status);
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Reply['body'] };
    };

    const live = new Map<string, string>(); // secret -> key id
    const disabled: string[] = []; // ids of keys disabled by the churn, oldest first
    const revoking = new Set<string>(); // a revoking request is in flight
    const revoked = new Map<string, Revoked>();
    const settled: Settled = (secret) => live.has(secret) && !revoking.has(secret);
    const create = async (on: Server) => {
      const reply = await backOffice(on, 'POST', '/api-keys', { name: `soak ${figures.churn}` });
      if (reply.status !== 201) throw new Error(`create: ${reply.status}`);
      live.set(reply.body.secret, reply.body.api_key.id);
    };
    for (let i = 0; i < 8; i++) await create(servers[i % 2]!);

    const started = Date.now();
    const endAt = started + options.seconds * 1000;
    let warm: Promise<MemoryFigures[]> | undefined;
    const measure = () => Promise.all(servers.map((server) => memoryAfterGc(server.inspectorPort)));

    const traffic = async () => {
      while (Date.now() < endAt) {
        const on = servers[Math.floor(Math.random() * 2)]!;
        const kind = Math.random();
        const pool = kind < 0.7 ? [...live.keys()] : kind < 0.85 ? [...revoked.keys()] : [];
        const pooled = pool.length > 0;
        const secret = pool[Math.floor(Math.random() * pool.length)] ?? generateSecret();
        const sentAt = Date.now();
        const liveAtSend = settled(secret);
        const response = await fetch(`${on.url}/api/v1/whoami`, {
          headers: { 'x-api-key': secret, 'x-forwarded-for': client() },
        });
        await response.arrayBuffer();
        figures.requests++;
        count(response.status);
        const right = rightAnswer(secret, { pooled, sentAt, liveAtSend }, settled, revoked);
        const allowed = right === undefined ? [200, 401] : [right];
        if (!allowed.includes(response.status)) {
          const gone = revoked.get(secret);
          const what = !pooled
            ? 'an unknown key'
            : gone
              ? `a key revoked on ${gone.on} ${sentAt - gone.at} ms before the request`
              : right === 200
                ? 'a live key'
                : 'a key being changed';
          figures.wrong.push(`${response.status} on ${on.name} for ${what} (right: ${allowed.join(' or ')})`);
        }
      }
    };

    const churn = async () => {
      while (Date.now() < endAt) {
        const on = servers[Math.floor(Math.random() * 2)]!;
        const action = Math.random();
        const entries = [...live.entries()].filter(([secret]) => !revoking.has(secret));
        if (live.size + disabled.length >= MAX_ROWS) {
          // Disabled keys stay in the tenant's count: a long soak would reach the per-tenant limit.
          const reply = await backOffice(on, 'DELETE', `/api-keys/${disabled.shift()!}`);
          if (reply.status !== 204) throw new Error(`churn: delete disabled ${reply.status}`);
        } else if (action < 0.4 || entries.length < 4) await create(on);
        else {
          const [secret, id] = entries[Math.floor(Math.random() * entries.length)]!;
          revoking.add(secret);
          const reply =
            action < 0.6
              ? await backOffice(on, 'POST', `/api-keys/${id}/roll`, { overlap: 'none' })
              : action < 0.8
                ? await backOffice(on, 'PATCH', `/api-keys/${id}`, { enabled: false })
                : await backOffice(on, 'DELETE', `/api-keys/${id}`);
          if (![200, 201, 204].includes(reply.status))
            throw new Error(`churn: ${reply.status} ${JSON.stringify(reply.body)}`);
          revoked.set(secret, { at: Date.now(), on: on.name });
          live.delete(secret);
          revoking.delete(secret);
          if (reply.status === 201) live.set(reply.body.secret, reply.body.api_key.id);
          if (reply.status === 200) disabled.push(id);
        }
        figures.churn++;
        await sleep(20); // a back office is used by people: churn at tens per second, not flat out
      }
    };

    const sampler = (async () => {
      while (Date.now() < endAt) {
        await sleep(200);
        if (!warm && Date.now() - started >= options.warmupSeconds * 1000) {
          warm = measure();
          log(`warm: ${describe(await warm)}`);
        }
      }
    })();
    await Promise.all([...Array.from({ length: options.concurrency ?? 4 }, traffic), churn(), sampler]);
    const [before, end] = [await warm!, await measure()];
    figures.memory = servers.map((server, i) => ({
      instance: server.name,
      warm: before[i]!,
      end: end[i]!,
      heapGrowthMb: end[i]!.heapUsedMb - before[i]!.heapUsedMb,
    }));
    log(
      `soak: ${figures.requests} key checks, ${figures.churn} back-office changes in ${options.seconds} s; statuses ${JSON.stringify(figures.statuses)}; warm ${describe(before)}; end ${describe(end)}`,
    );
    return figures;
  } finally {
    for (const server of servers) {
      if (server.child.exitCode === null) {
        const exited = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.kill('SIGTERM');
        await exited;
      }
    }
  }
}

/** Heap after GC and RSS per instance, in MB. */
function describe(figures: MemoryFigures[]): string {
  return figures.map((f) => `heap ${f.heapUsedMb.toFixed(1)} MB, RSS ${f.rssMb.toFixed(0)} MB`).join(' / ');
}
