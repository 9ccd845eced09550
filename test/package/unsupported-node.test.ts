import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without types.
import { nodeBinary } from '../../scripts/node-runtime.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('an unsupported Node.js', () => {
  it.each([18, 20])(
    'Node %i starting the server gets one line naming the version needed, and exit 1',
    (major) => {
      const node = (nodeBinary as (major: number) => string)(major);
      const result = spawnSync(node, ['bin/airkey', 'serve'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, PORT: '0' },
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(`^airkey needs Node\\.js 24 or newer; this is Node\\.js v${major}\\.[0-9.]+\\.\\n$`),
      );
    },
    120_000,
  );
});
