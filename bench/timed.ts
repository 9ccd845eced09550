import { tally } from './measure.ts';

/**
 * Sequential requests timed one by one on one connection: `ms` is the client's round trip, and
 * `serverMs` what the server reports in `Server-Timing: app;dur=…` (its own time, serialisation included).
 */
export async function timed(
  count: number,
  send: (index: number) => Promise<Response>,
): Promise<{ ms: number[]; serverMs: number[]; bad: number }> {
  const ms: number[] = [];
  const serverMs: number[] = [];
  let bad = 0;
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await send(index);
    await response.arrayBuffer();
    ms.push(performance.now() - started);
    const reported = /app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
    serverMs.push(reported ? Number(reported[1]) : NaN);
    if (response.status < 200 || response.status > 299) bad++;
  }
  tally({ requests: count, non2xx: bad, errors: 0 });
  return { ms, serverMs, bad };
}
