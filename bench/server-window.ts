/** What a server itself says it answered during a window of a running load, and the CPU it spent. */
import { cpuMsOf } from './measure.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests the server has answered on a route, by its own count (GET /metrics, as Prometheus reads it). */
async function answeredOn(url: string, route: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('airkey_http_requests_total{') && line.includes(`route="${route}"`))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export type Window = { rps: number; busy: number; cpuUsPerRequest: number };

/**
 * The server's own figures over `ms` inside a running load: requests it answered per second (its
 * /metrics count, not the clients': autocannon's 200-connection run overran its 7 s by up to 7 s,
 * so client averages added rates of different periods), how busy it was, and CPU per request.
 */
export async function serverWindow(url: string, pid: number, ms: number): Promise<Window> {
  const [count0, cpu0, t0] = [await answeredOn(url, '/api/v1/whoami'), cpuMsOf(pid), performance.now()];
  await sleep(ms);
  const [count1, cpu1, t1] = [await answeredOn(url, '/api/v1/whoami'), cpuMsOf(pid), performance.now()];
  const requests = count1 - count0;
  return {
    rps: (requests * 1000) / (t1 - t0),
    busy: (cpu1 - cpu0) / (t1 - t0),
    cpuUsPerRequest: ((cpu1 - cpu0) * 1000) / requests,
  };
}
