/** The flood scenario (issue 9, target 3): a valid key's traffic alone, then beside 200 connections of guesses. */
import type { AirkeyReady } from './airkey-server.ts';
import { cpuMsOf, load, loadElsewhere, median, type Sample } from './measure.ts';
import { fmt, randomCheckedKey, type Row, type Settings } from './scenarios.ts';
import { hasWrk, wrkLoad } from './wrk.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

type Window = { rps: number; busy: number; cpuUsPerRequest: number };

/**
 * The server's own figures over `ms` inside a running load: requests it answered per second (its
 * /metrics count, not the clients': autocannon's 200-connection run overran its 7 s by up to 7 s,
 * so client averages added rates of different periods), how busy it was, and CPU per request.
 */
async function serverWindow(url: string, pid: number, ms: number): Promise<Window> {
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

/**
 * The flood's loads: 10 connections of the valid key, and 200 connections cycling through `keys`
 * (resolves once ready; call to go). wrk where this machine has it, else autocannon (the 200
 * connections in a second process).
 */
function floodLoads(url: string, key: string) {
  if (hasWrk) {
    return {
      client: 'wrk',
      valid: (seconds: number) => wrkLoad({ url, connections: 10, seconds, keys: [key] }),
      crowd: async (keys: string[], seconds: number) => () => wrkLoad({ url, connections: 200, seconds, keys }),
    };
  }
  return {
    client: 'autocannon',
    valid: (seconds: number) => load({ url, headers: { 'x-api-key': key }, connections: 10, seconds }),
    crowd: (keys: string[], seconds: number) =>
      loadElsewhere({ url, connections: 200, seconds, headerSets: keys.map((each) => ({ 'x-api-key': each })) }),
  };
}

/** The valid key's 10 connections beside 200 connections of `keys`: the server's window, and the valid key's sample. */
async function crowded(
  loads: ReturnType<typeof floodLoads>,
  keys: string[],
  url: string,
  pid: number,
): Promise<[Window, Sample]> {
  const startCrowd = await loads.crowd(keys, 5);
  const both = Promise.all([loads.valid(5), startCrowd()]);
  await sleep(1300);
  const window = await serverWindow(url, pid, 3400);
  return [window, (await both)[0]];
}

/**
 * What 200 more connections cost a bare Fastify route (no key check at all), from wrk's counts:
 * its 10 connections alone, then the same 10 beside 200 more, every request the same.
 */
async function bareConnectionCost(
  loads: ReturnType<typeof floodLoads>,
  key: string,
): Promise<{ few: number; many: number; bad: number }> {
  const alone = await loads.valid(2);
  const startCrowd = await loads.crowd([key], 2);
  const [valid, crowd] = await Promise.all([loads.valid(2), startCrowd()]);
  const bad = [alone, valid, crowd].reduce((n, sample) => n + sample.non2xx + sample.errors, 0);
  return { few: alone.rps, many: valid.rps + crowd.rps, bad };
}

/**
 * 10 connections of a valid key alone, then the same with 200 connections of random checksummed
 * keys from the same client; the server runs with KEY_CACHE_MAX_AGE_MS=3000, so the valid key's
 * entry ages out during each flood. The server's rate is read inside each load; a ratio is the
 * median of each round's (a round's loads are adjacent in time, so drift cancels).
 * `control` (PGlite only, for time): also the same 210 connections all with the valid key, which
 * tells what the 200 extra connections cost apart from the refusals, and the same 10 and 210
 * connections on the bare Fastify route at `control.bareUrl`, which tells what they cost any server.
 */
export async function flood(
  engine: string,
  airkey: AirkeyReady,
  pid: number,
  s: Settings,
  control?: { bareUrl: string },
): Promise<{ rows: Row[]; bad: number; note?: string }> {
  const loads = floodLoads(`${airkey.url}/api/v1/whoami`, airkey.key);
  const guesses = Array.from({ length: 2000 }, randomCheckedKey);
  s.log(
    `flood on ${engine} (${loads.client}): valid key alone, then with 200 connections of random keys${control ? ', then of the valid key' : ''}`,
  );
  await loads.valid(2); // warm-up
  const alone: Window[] = [];
  const flooded: Window[] = [];
  const controls: Window[] = [];
  const bare: Array<{ few: number; many: number; bad: number }> = [];
  const bareLoads = control && floodLoads(`${control.bareUrl}/whoami`, airkey.key);
  const validUnderFlood: Sample[] = [];
  let bad = 0;
  for (let round = 0; round < 3; round++) {
    const aloneLoad = loads.valid(5);
    await sleep(1300);
    alone.push(await serverWindow(airkey.url, pid, 3400));
    const aloneSample = await aloneLoad;
    bad += aloneSample.non2xx + aloneSample.errors;
    const [floodWindow, valid] = await crowded(loads, guesses, airkey.url, pid);
    flooded.push(floodWindow);
    validUnderFlood.push(valid);
    if (control) {
      const [controlWindow, sample] = await crowded(loads, [airkey.key], airkey.url, pid);
      controls.push(controlWindow);
      bad += sample.non2xx + sample.errors;
    }
    if (bareLoads) {
      const cost = await bareConnectionCost(bareLoads, airkey.key);
      bare.push(cost);
      bad += cost.bad;
    }
    const [a, f, c] = [alone.at(-1)!, flooded.at(-1)!, controls.at(-1)];
    const all = (w: Window) => `${fmt(w.rps)} req/s (${fmt(w.busy * 100)}% busy, ${fmt(w.cpuUsPerRequest, 1)} µs each)`;
    const b = bare.at(-1);
    s.log(
      `    round ${round + 1}: alone ${all(a)}; flood ${all(f)}, valid key ${valid.non2xx} non-2xx${c ? `; all valid ${all(c)}` : ''}${b ? `; bare route ${fmt(b.few)} -> ${fmt(b.many)} req/s` : ''}`,
    );
  }
  const [aloneRps, floodRps] = [median(alone.map((w) => w.rps)), median(flooded.map((w) => w.rps))];
  const [aloneCpu, floodCpu] = [
    median(alone.map((w) => w.cpuUsPerRequest)),
    median(flooded.map((w) => w.cpuUsPerRequest)),
  ];
  const rpsRatio = median(flooded.map((w, i) => w.rps / alone[i]!.rps));
  const cpuRatio = median(flooded.map((w, i) => w.cpuUsPerRequest / alone[i]!.cpuUsPerRequest));
  const busy = (windows: Window[]) => `${fmt(median(windows.map((w) => w.busy)) * 100)}% busy`;
  const validBad = validUnderFlood.reduce((n, v) => n + v.non2xx + v.errors, 0);
  const validRequests = validUnderFlood.reduce((n, v) => n + v.requests, 0);
  const what = `3. flood (${engine}, ${loads.client})`;
  const rows: Row[] = [
    {
      what: `${what}: req/s the server answered vs valid-only`,
      value: `${fmt(floodRps)} (${busy(flooded)})`,
      reference: `${fmt(aloneRps)} (${busy(alone)})`,
      ratio: fmt(rpsRatio, 2),
      target: '≥ 1×',
      pass: rpsRatio >= 1,
    },
    {
      what: `${what}: server CPU µs per request vs valid-only`,
      value: fmt(floodCpu, 1),
      reference: fmt(aloneCpu, 1),
      ratio: fmt(cpuRatio, 2),
      target: '≤ 1×',
      pass: cpuRatio <= 1,
    },
  ];
  if (control) {
    const controlRatio = median(flooded.map((w, i) => w.rps / controls[i]!.rps));
    const controlRps = median(controls.map((w) => w.rps));
    rows.push({
      what: `${what}: req/s, flood vs the same 210 connections all valid`,
      value: fmt(floodRps),
      reference: `${fmt(controlRps)} (${busy(controls)})`,
      ratio: fmt(controlRatio, 2),
      target: '(≥ 1×)',
      pass: undefined,
    });
    const airkeyCost = median(controls.map((w, i) => w.rps / alone[i]!.rps));
    rows.push({
      what: `${what}: req/s, 210 connections all valid vs 10`,
      value: fmt(controlRps),
      reference: fmt(aloneRps),
      ratio: fmt(airkeyCost, 2),
      target: '(what connections cost)',
      pass: undefined,
    });
    const bareCost = median(bare.map((b) => b.many / b.few));
    rows.push({
      what: `${what}: bare Fastify route, req/s at 210 connections vs 10`,
      value: fmt(median(bare.map((b) => b.many))),
      reference: fmt(median(bare.map((b) => b.few))),
      ratio: fmt(bareCost, 2),
      target: '(what connections cost)',
      pass: undefined,
    });
  }
  rows.push({
    what: `${what}: valid key non-2xx (cache aged out)`,
    value: String(validBad),
    reference: `of ${validRequests}`,
    ratio: '',
    target: '0',
    pass: validBad === 0,
  });
  return {
    rows,
    bad: bad + validBad,
    ...(hasWrk
      ? {}
      : {
          note: 'The flood ran on autocannon (no wrk here: `apt-get install wrk`). On two cores its two processes cannot keep the server busy, so its req/s row measures the client (README, Floods).',
        }),
  };
}
