import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary folder of this bench run (its servers' data directories, about 80 MB each with
 * the log's own store) goes under one root that the run removes as it ends: `TMPDIR`, which the
 * servers it starts inherit. Without it, each run left gigabytes in /tmp.
 */
export function temporaryRunRoot(): void {
  const root = mkdtempSync(join(tmpdir(), 'airkey-bench-run-'));
  // Enterable by a PostgreSQL server's own user, as /tmp is; each folder in it stays 0700.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  const remove = () => rmSync(root, { recursive: true, force: true });
  process.on('exit', remove);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      remove();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
}
