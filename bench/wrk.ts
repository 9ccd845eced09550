/**
 * wrk (Debian's `wrk` package), where this machine has it, as the flood's load. A C client costs a
 * fraction of autocannon per request: with autocannon's two processes the server under a flood was
 * only 62-66% busy on two cores, so the flood's req/s measured the client; with wrk it is 100% busy.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, tally, type Expect, type Load, type Sample } from './measure.ts';

export const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

export type WrkLoad = {
  url: string;
  connections: number;
  seconds: number;
  keys: string[];
  /** The header field the keys go in: X-API-Key unless said (`Authorization` with `Bearer …` values). */
  header?: string;
  expect?: Expect;
  /** A POST with these further header fields and this body (MCP's JSON-RPC); a GET without. */
  post?: { headers: Record<string, string>; body: string };
};

/**
 * One wrk run, one thread, each request with the next of `keys` in X-API-Key or `header` (the
 * requests are formatted once, at start). The sample comes from wrk's own summary (`done`), as JSON.
 */
export async function wrkLoad(spec: WrkLoad): Promise<Sample> {
  const header = JSON.stringify(spec.header ?? 'X-API-Key');
  const dir = mkdtempSync(join(tmpdir(), 'airkey-wrk-'));
  const script = join(dir, 'keys.lua');
  writeFileSync(
    script,
    `local keys = {${spec.keys.map((key) => JSON.stringify(key)).join(',')}}
local formatted = {}
local next = 0
init = function()
  for i = 1, #keys do
    ${
      spec.post
        ? `local headers = ${luaTable(spec.post.headers)}
    headers[${header}] = keys[i]
    formatted[i] = wrk.format('POST', nil, headers, ${JSON.stringify(spec.post.body)})`
        : `formatted[i] = wrk.format('GET', nil, { [${header}] = keys[i] })`
    }
  end
end
request = function()
  next = next % #formatted + 1
  return formatted[next]
end
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('\\nSAMPLE {"requests":%d,"us":%d,"p50":%d,"p99":%d,"non2xx":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
`,
  );
  try {
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        'wrk',
        // wrk gives up on an answer after 2 s and counts it an error; autocannon waits 10 s. At 210
        // connections on two slow cores a few answers take longer than 2 s, and they are answers.
        ['-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--timeout', '10s', '-s', script, spec.url],
        (error, stdout) =>
          error ? reject(new Error(`wrk failed: ${error.message}`, { cause: error })) : resolve(stdout),
      ),
    );
    const line = output.split('\n').find((text) => text.startsWith('SAMPLE '));
    if (!line) throw new Error(`wrk printed no summary:\n${output}`);
    const s = JSON.parse(line.slice(7)) as {
      requests: number;
      us: number;
      p50: number;
      p99: number;
      non2xx: number;
      errors: number;
    };
    const sample = {
      rps: s.requests / (s.us / 1e6),
      p50: s.p50 / 1000,
      p99: s.p99 / 1000,
      non2xx: s.non2xx,
      errors: s.errors,
      requests: s.requests,
    };
    tally(sample, spec.expect, spec.url);
    return sample;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Lua table of string fields (JSON string literals are valid Lua strings for what we send). */
function luaTable(fields: Record<string, string>): string {
  return `{${Object.entries(fields)
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ')}}`;
}

/**
 * A load of one fixed key from wrk where the machine has it, from autocannon otherwise: for the
 * rows that price a feature on the request path (rate limits, tracing). autocannon shares the two
 * cores with the server and parses every response header in JavaScript, so the RateLimit fields
 * or a 429's longer body would count against airkey as the client's work.
 */
export function keyLoad(spec: Load): Promise<Sample> {
  const key = spec.headers?.['x-api-key'];
  if (!hasWrk || key === undefined || Object.keys(spec.headers!).length > 1) return load(spec);
  return wrkLoad({
    url: spec.url,
    connections: spec.connections,
    seconds: spec.seconds ?? 5,
    keys: [key],
    expect: spec.expect,
  });
}
