/**
 * CPU time per request of airkey's whoami and of the bare route, each server alone under the same
 * load: steadier than req/s on a small shared machine, where the client takes its share of the
 * cores. Usage: node bench/cpu-per-request.ts [requests]
 */
import type { AirkeyReady } from './airkey-server.ts';
import { AS_NPM_START, cpuMsOf, load, NPM_START_NODE_FLAGS, startServer } from './measure.ts';
import { temporaryRunRoot } from './run-root.ts';

temporaryRunRoot();

const requests = Number(process.argv[2] ?? 100_000);

const airkey = await startServer<AirkeyReady>('./airkey-server.ts', AS_NPM_START, undefined, 'server', {
  nodeFlags: [...NPM_START_NODE_FLAGS],
});
const bare = await startServer<{ url: string }>(
  './bare-server.ts',
  {},
  { whoami: airkey.info.whoami, engine: 'none', tenantId: '', flightsNow: '' },
);
try {
  for (let round = 0; round < 3; round++) {
    for (const [name, server, url, headers] of [
      ['airkey', airkey, `${airkey.info.url}/api/v1/whoami`, { 'x-api-key': airkey.info.key }],
      ['bare', bare, `${bare.info.url}/whoami`, { 'x-api-key': airkey.info.key }],
    ] as const) {
      const before = cpuMsOf(server.child.pid!);
      const sample = await load({ url, connections: 50, amount: requests, headers });
      const used = cpuMsOf(server.child.pid!) - before;
      console.log(
        `${name.padEnd(7)} ${((used * 1000) / requests).toFixed(1)} µs CPU per request, ${sample.rps.toFixed(0)} req/s, non-2xx ${sample.non2xx}`,
      );
    }
  }
} finally {
  await Promise.all([airkey.stop(), bare.stop()]);
}
