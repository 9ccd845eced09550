/** The flood scenario (target 3): a valid key's traffic alone, then beside 200 connections of guesses. */
import type { AirkeyReady } from './airkey-server.ts';
import { load, loadElsewhere, median, type Expect, type Sample } from './measure.ts';
import { serverWindow, sleep, type Window } from './server-window.ts';
import { atLeast, atMost, exactly, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt, randomCheckedKey } from './scenarios.ts';
import { hasWrk, wrkLoad } from './wrk.ts';

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
      // Same shape as autocannon's (ready, then go); wrk needs no start-up.
      crowd: (keys: string[], seconds: number, expect: Expect) =>
        Promise.resolve(() => wrkLoad({ url, connections: 200, seconds, keys, expect })),
    };
  }
  return {
    client: 'autocannon',
    valid: (seconds: number) => load({ url, headers: { 'x-api-key': key }, connections: 10, seconds }),
    crowd: (keys: string[], seconds: number, expect: Expect) =>
      loadElsewhere({
        url,
        connections: 200,
        seconds,
        headerSets: keys.map((each) => ({ 'x-api-key': each })),
        expect,
      }),
  };
}

/** The valid key's 10 connections beside 200 connections of `keys`: the server's window, and the valid key's sample. */
async function crowded(
  loads: ReturnType<typeof floodLoads>,
  keys: string[],
  expect: Expect,
  url: string,
  pid: number,
): Promise<[Window, Sample]> {
  const startCrowd = await loads.crowd(keys, 5, expect);
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
): Promise<{ few: number; many: number }> {
  const alone = await loads.valid(2);
  const startCrowd = await loads.crowd([key], 2, '2xx');
  const [valid, crowd] = await Promise.all([loads.valid(2), startCrowd()]);
  return { few: alone.rps, many: valid.rps + crowd.rps };
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
): Promise<{ rows: Row[]; note?: string }> {
  const loads = floodLoads(`${airkey.url}/api/v1/whoami`, airkey.key);
  const guesses = Array.from({ length: 2000 }, randomCheckedKey);
  s.log(
    `flood on ${engine} (${loads.client}): valid key alone, then with 200 connections of random keys${control ? ', then of the valid key' : ''}`,
  );
  await loads.valid(2); // warm-up
  const alone: Window[] = [];
  const flooded: Window[] = [];
  const controls: Window[] = [];
  const bare: Array<{ few: number; many: number }> = [];
  const bareLoads = control && floodLoads(`${control.bareUrl}/whoami`, airkey.key);
  const validUnderFlood: Sample[] = [];
  // Every load below counts its own answers (measure.ts); `bad` here is what the rows are held to.
  let bad = 0;
  for (let round = 0; round < 3; round++) {
    const aloneLoad = loads.valid(5);
    await sleep(1300);
    alone.push(await serverWindow(airkey.url, pid, 3400));
    const aloneSample = await aloneLoad;
    bad += aloneSample.non2xx + aloneSample.errors;
    const [floodWindow, valid] = await crowded(loads, guesses, 'refusal', airkey.url, pid);
    flooded.push(floodWindow);
    validUnderFlood.push(valid);
    if (control) {
      const [controlWindow, sample] = await crowded(loads, [airkey.key], '2xx', airkey.url, pid);
      controls.push(controlWindow);
      bad += sample.non2xx + sample.errors;
    }
    if (bareLoads) {
      bare.push(await bareConnectionCost(bareLoads, airkey.key));
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
      measured: { value: floodRps, ratio: rpsRatio },
      target: atLeast(1),
      bad,
    },
    {
      what: `${what}: server CPU µs per request vs valid-only`,
      value: fmt(floodCpu, 1),
      reference: fmt(aloneCpu, 1),
      ratio: fmt(cpuRatio, 2),
      measured: { value: floodCpu, ratio: cpuRatio },
      target: atMost(1),
      bad,
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
      measured: { value: floodRps, ratio: controlRatio },
      target: atLeast(1),
      informational: true,
    });
    const airkeyCost = median(controls.map((w, i) => w.rps / alone[i]!.rps));
    rows.push({
      what: `${what}: req/s, 210 connections all valid vs 10`,
      value: fmt(controlRps),
      reference: fmt(aloneRps),
      ratio: fmt(airkeyCost, 2),
      measured: { value: controlRps, ratio: airkeyCost },
      purpose: 'what connections cost',
    });
    const bareCost = median(bare.map((b) => b.many / b.few));
    rows.push({
      what: `${what}: bare Fastify route, req/s at 210 connections vs 10`,
      value: fmt(median(bare.map((b) => b.many))),
      reference: fmt(median(bare.map((b) => b.few))),
      ratio: fmt(bareCost, 2),
      measured: { value: median(bare.map((b) => b.many)), ratio: bareCost },
      purpose: 'what connections cost',
    });
  }
  rows.push({
    what: `${what}: valid key non-2xx (cache aged out)`,
    value: String(validBad),
    reference: `of ${validRequests}`,
    ratio: '',
    measured: { value: validBad, ratio: NaN },
    target: exactly(0),
  });
  return {
    rows,
    ...(hasWrk
      ? {}
      : {
          note: 'The flood ran on autocannon (no wrk here: `apt-get install wrk`). On two cores its two processes cannot keep the server busy, so its req/s row measures the client (README, Floods).',
        }),
  };
}

export const floodScenario: Scenario = {
  name: 'flood',
  title: '3. flood: a valid key beside 200 connections of guesses',
  engines: ['pglite', 'postgres'],
  alone: true,
  async run({ engine, airkey, bare, settings, note }) {
    // The valid key's cache entry ages out during each flood, so its checks meet the guesses.
    const flooded = await airkey({ KEY_CACHE_MAX_AGE_MS: '3000' });
    // On PGlite the flood is also measured against connections alone, on a bare route (idle meanwhile).
    const floor =
      engine === 'pglite' ? await bare({ whoami: flooded.info.whoami, engine: 'none', tenantId: '' }) : undefined;
    const result = await flood(
      engine,
      flooded.info,
      flooded.child.pid!,
      settings,
      floor && { bareUrl: floor.info.url },
    );
    if (result.note) note(result.note);
    return result.rows;
  },
};
