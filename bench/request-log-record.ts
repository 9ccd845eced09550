/**
 * What the request thread pays per request log entry, on its own: the sink's `record` as the hook
 * calls it (fresh path, address and user-agent strings each time, as a request has them), chunks
 * handed to a real writer-thread port whose other end drops them. CPU of this thread only
 * (`process.threadCpuUsage`), so other load on the machine barely moves it.
 * Usage: node bench/request-log-record.ts [entries=2000000] [rounds=5]
 */
import { MessageChannel } from 'node:worker_threads';
import { transferablesOf, type RequestChunk } from '../src/request-log/request-columns.ts';
import { RequestLogSink, type RequestLogDrain } from '../src/request-log/request-log-sink.ts';

const entries = Number(process.argv[2] ?? 2_000_000);
const rounds = Number(process.argv[3] ?? 5);

// A port like the worker's: the chunk is posted with its arrays transferred; the other end lets go.
const { port1, port2 } = new MessageChannel();
let taken = 0;
port2.on('message', (chunk: RequestChunk) => {
  taken += chunk.size;
});
const drain: RequestLogDrain = {
  state: { written: 0, dropped: 0, pending: 0 },
  take: (chunk) => port1.postMessage(chunk, transferablesOf(chunk)),
  start: () => {},
  flush: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};
const sink = new RequestLogSink({ drain, capacity: 100_000, intervalMs: 1_000 });
const tenantId = crypto.randomUUID();
const keyId = crypto.randomUUID();

for (let round = 0; round < rounds; round++) {
  const start = process.threadCpuUsage();
  const at = Date.now();
  for (let i = 0; i < entries; i++) {
    sink.record({
      atMs: at + i,
      tenantId,
      credential: 'key',
      keyId,
      keyName: 'bench',
      keyHint: 'ask_…abcd',
      method: 'GET',
      path: `/api/v1/whoami${i % 2 ? '' : '?'}`.slice(0, 14),
      route: '/api/v1/whoami',
      status: 200,
      outcome: 'ok',
      address: `192.0.2.${i & 0xff}`,
      userAgent: `wrk/${i % 3}.0`,
      durationMs: 0.42,
      traceId: null,
      mcpMethod: null,
      mcpTool: null,
    });
  }
  await sink.flush();
  const used = process.threadCpuUsage(start);
  console.log(
    `round ${round + 1}: ${((used.user + used.system) / entries).toFixed(3)} µs of this thread's CPU an entry`,
  );
}
await new Promise((resolve) => setTimeout(resolve, 100));
console.log(`${taken} entries handed over`);
port1.close();
