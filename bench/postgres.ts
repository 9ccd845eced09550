/** A throwaway PostgreSQL database for one bench run (or the one given), or undefined when no server answers. */
import pg from 'pg';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function throwawayPostgres(
  given: string | undefined,
): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (given) {
    const probe = new pg.Client({ connectionString: given, connectionTimeoutMillis: 2_000 });
    try {
      await probe.connect();
    } catch {
      return undefined;
    } finally {
      await probe.end().catch(() => {});
    }
    return { url: given, drop: async () => {} };
  }
  const admin = new pg.Client({ connectionString: DEFAULT_SERVER, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `airkey_bench_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = DEFAULT_SERVER.replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: DEFAULT_SERVER });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
