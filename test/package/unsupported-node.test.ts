import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without types.
import { nodeBinary } from '../../scripts/node-runtime.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('an unsupported Node.js', () => {
  it.each([18, 20])(
    'Node %i starting the server is told the version needed and, in a checkout, the npm script that brings it; exit 1',
    (major) => {
      const node = (nodeBinary as (major: number) => string)(major);
      const result = spawnSync(node, ['bin/airkey', 'serve'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, PORT: '0' },
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      const [needs, howTo, ...rest] = result.stderr.split('\n');
      expect(needs).toMatch(
        new RegExp(`^airkey needs Node\\.js 24 or newer; this is Node\\.js v${major}\\.[0-9.]+\\.$`),
      );
      expect(howTo).toBe(
        'In this checkout, run `npm run airkey -- <verb> …` instead: it runs on Node.js 24 (from the npm registry, fetched on first use).',
      );
      expect(rest).toEqual(['']);
    },
    120_000,
  );
});
