/** CPU of a PostgreSQL database's own backends, read from /proc: the server runs on this machine. */
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Each backend's CPU ms, remembered past its end (a backend that exits between readings keeps its last). */
const seen = new Map<number, number>();
const owners = new Map<number, string>();

/**
 * The CPU ms so far of the backends connected to `url`'s database (this reading's own backend
 * excluded). Shared server processes (WAL writer, checkpointer) are not counted: they serve every
 * database on the server.
 */
export async function backendCpuMs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let pids: number[];
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    pids = rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
  const database = new URL(url).pathname;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seen.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
      owners.set(pid, database);
    } catch {
      // ended meanwhile: its last reading stands
    }
  }
  let total = 0;
  for (const [pid, ms] of seen) if (owners.get(pid) === database) total += ms;
  return total;
}
