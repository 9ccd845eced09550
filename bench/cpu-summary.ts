/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) without a GUI: self time by function and
 * by file, top N, optionally skipping the first S seconds (start-up).
 * Usage: node bench/cpu-summary.ts file.cpuprofile [N] [S]
 */
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const top = Number(process.argv[3] ?? 25);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const skipUs = Number(process.argv[4] ?? 0) * 1e6;
const self = new Map<number, number>();
let elapsed = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  elapsed += delta;
  if (elapsed >= skipUs) self.set(id, (self.get(id) ?? 0) + delta);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '~/')
    .replace(/.*wt-perf\//, '');
const tally = (key: (node: Node) => string) => {
  const sums = new Map<string, number>();
  for (const [id, time] of self) {
    const name = key(byId.get(id)!);
    sums.set(name, (sums.get(name) ?? 0) + time);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, top);
};
const print = (title: string, rows: Array<[string, number]>) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [name, time] of rows) console.log(`${((time / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
};
print(
  'self time by function',
  tally(
    (n) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`,
  ),
);
const pkg = (n: Node) => {
  const url = shortUrl(n.callFrame.url);
  if (url.startsWith('~/'))
    return url
      .split('/')
      .slice(0, url.startsWith('~/@') ? 3 : 2)
      .join('/');
  return url || `(${n.callFrame.functionName})`;
};
print('self time by package/file', tally(pkg));
