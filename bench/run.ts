/**
 * `npm run bench`: what the key check costs. One server process; autocannon in this process
 * alternates rounds of GET /api/v1/whoami (with X-API-Key, through the check) and
 * GET /bench/whoami-unchecked (same handler, fixed principal, no check). Medians over the rounds.
 */
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

type Sample = { rps: number; p99: number; errors: number; non2xx: number };

const server = fork(new URL('./server.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
  server.once('message', (message) => resolve(message as { url: string; key: string }));
  server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});

const run = async (path: string, headers: Record<string, string>, seconds: number): Promise<Sample> => {
  const result = await autocannon({ url: url + path, headers, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
};

const checked = () => run('/api/v1/whoami', { 'x-api-key': key }, SECONDS);
const unchecked = () => run('/bench/whoami-unchecked', {}, SECONDS);

console.log(`airkey bench: ${ROUNDS} interleaved rounds × ${SECONDS}s per side, ${CONNECTIONS} connections, ${url}`);
await run('/api/v1/whoami', { 'x-api-key': key }, 2); // warm-up: JIT, cache fill
await run('/bench/whoami-unchecked', {}, 2);

const samples = { checked: [] as Sample[], unchecked: [] as Sample[] };
for (let round = 1; round <= ROUNDS; round++) {
  // Alternate which side goes first so drift (thermal, GC) falls on both equally.
  const order = round % 2 === 1 ? (['checked', 'unchecked'] as const) : (['unchecked', 'checked'] as const);
  for (const side of order) samples[side].push(await (side === 'checked' ? checked() : unchecked()));
  const [c, u] = [samples.checked.at(-1)!, samples.unchecked.at(-1)!];
  console.log(`round ${round}: checked ${c.rps.toFixed(0)} req/s p99 ${c.p99} ms | unchecked ${u.rps.toFixed(0)} req/s p99 ${u.p99} ms`);
}
server.disconnect();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const summary = {
  checked_rps: median(samples.checked.map((s) => s.rps)),
  unchecked_rps: median(samples.unchecked.map((s) => s.rps)),
  checked_p99_ms: median(samples.checked.map((s) => s.p99)),
  unchecked_p99_ms: median(samples.unchecked.map((s) => s.p99)),
  failures: [...samples.checked, ...samples.unchecked].reduce((n, s) => n + s.errors + s.non2xx, 0),
};
const throughputRatio = summary.checked_rps / summary.unchecked_rps;
console.log('\nmedians');
console.log(`  with key check:    ${summary.checked_rps.toFixed(0)} req/s, p99 ${summary.checked_p99_ms} ms`);
console.log(`  without key check: ${summary.unchecked_rps.toFixed(0)} req/s, p99 ${summary.unchecked_p99_ms} ms`);
console.log(`  throughput ratio (with/without): ${throughputRatio.toFixed(3)}  → the check costs ${((1 - throughputRatio) * 100).toFixed(1)} %`);
console.log(`  p99 ratio (with/without): ${(summary.checked_p99_ms / summary.unchecked_p99_ms).toFixed(2)}`);
console.log(`  failed or non-2xx responses: ${summary.failures}`);
console.log(JSON.stringify({ ...summary, throughput_ratio: Number(throughputRatio.toFixed(4)) }));
if (summary.failures > 0) process.exitCode = 1;
