import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for a whole run (the test suite's, a bench's): `TMPDIR` points at it, so the
 * processes and servers the run starts make their folders there too (a PGlite data directory with
 * the log's own store is about 80 MB, and a run makes hundreds). Returns its removal.
 */
export function useRunRoot(prefix: string): () => void {
  const root = mkdtempSync(join(tmpdir(), prefix));
  // Enterable by a PostgreSQL server's own user, as /tmp is; each folder in it stays 0700.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
