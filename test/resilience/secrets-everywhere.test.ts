import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, freshDataDir, freshPostgresUrl, migratedDataDir, type Engine } from '../support/databases.ts';
import {
  ADMIN,
  clientAddress,
  createKey,
  signIn,
  startInstance,
  takeTurn,
  type Instance,
} from '../support/instances.ts';

/**
 * Secrets: after a run of real `airkey serve` processes that used keys in the header,
 * as Bearer and in the query, with failed validation, 404s and a kill -9, no full key appears in
 * the logs, the error bodies, the audit events, /metrics or the database files.
 */
const KEY = /ask_[A-Za-z0-9]{64}/g;

describe.each(ENGINES)('no key leaks anywhere (%s)', (engine: Engine) => {
  const started: Instance[] = [];
  afterAll(async () => {
    for (const instance of started) await instance.stop('SIGKILL');
  });

  it('after header, Bearer and query use, failures, 404s and a crash', { timeout: 240_000 }, async () => {
    const release = await takeTurn();
    try {
      const dataDir = engine === 'pglite' ? migratedDataDir() : freshDataDir();
      const databaseUrl = engine === 'postgres' ? await freshPostgresUrl() : undefined;
      const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
      const start = async (name: string) => {
        const instance = await startInstance(name, databaseUrl, env);
        started.push(instance);
        return instance;
      };
      const bodies: string[] = [];
      const minted: string[] = [];
      let server = await start('before-crash');
      let session = await signIn(server, ADMIN.email);
      const use = async (secret: string) => {
        for (const path of [
          '/api/v1/whoami',
          '/api/v1/flights?limit=0',
          `/api/v1/flights/${crypto.randomUUID()}`,
          '/api/v1/flights/not-an-id',
          '/api/v1/nowhere',
        ]) {
          for (const via of ['header', 'bearer', 'query'] as const) {
            const headers: Record<string, string> = { 'x-forwarded-for': clientAddress() };
            if (via === 'header') headers['x-api-key'] = secret;
            if (via === 'bearer') headers.authorization = `Bearer ${secret}`;
            const url = `${server.url}${path}${via === 'query' ? `${path.includes('?') ? '&' : '?'}api_key=${secret}` : ''}`;
            const response = await fetch(url, { headers }).catch(() => undefined);
            if (response) bodies.push(await response.text());
          }
        }
      };
      for (let i = 0; i < 3; i++) minted.push((await createKey(session, server, `leak probe ${i}`)).secret);
      const disabled = await createKey(session, server, 'disabled probe');
      minted.push(disabled.secret);
      expect(
        (await session.request(server, 'PATCH', `/backoffice/api/api-keys/${disabled.id}`, { enabled: false })).status,
      ).toBe(200);
      // A key that fails validation: one character changed, so its checksum no longer matches.
      const typo = `${minted[0]!.slice(0, -1)}${minted[0]!.endsWith('A') ? 'B' : 'A'}`;
      for (const secret of [...minted, typo]) await use(secret);
      // Crash in the middle of key traffic and a creation.
      const inFlight = Promise.allSettled([use(minted[1]!), createKey(session, server, 'cut off')]);
      server.child.kill('SIGKILL');
      await inFlight;
      const logsBefore = server.output();
      server = await start('after-crash');
      session = await signIn(server, ADMIN.email);
      minted.push((await createKey(session, server, 'after crash')).secret);
      for (const secret of minted) await use(secret);
      const audit = await session.request(server, 'GET', '/backoffice/api/audit-events');
      expect(audit.status).toBe(200);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('# TYPE');
      await server.stop();

      const places: Record<string, string> = {
        logs: logsBefore + server.output(),
        'error bodies': bodies.filter((b) => b.includes('"code"')).join('\n'),
        'audit events': JSON.stringify(audit.body),
        metrics,
        database: engine === 'pglite' ? filesUnder(dataDir) : await everyTextColumn(databaseUrl!),
      };
      expect(places.logs!.length).toBeGreaterThan(1000); // the run really logged its requests
      expect(places['error bodies']!).toContain('api_key_disabled');
      expect(places.database!).toMatch(/leak probe 0/); // the search really reads the data
      const secrets = [...minted, typo];
      const found = Object.entries(places).flatMap(([place, text]) => [
        ...(text.match(KEY) ?? []).filter((k) => secrets.includes(k)).map((k) => `${place}: ${k.slice(0, 10)}…`),
        ...secrets.filter((s) => text.includes(s.slice(4))).map((s) => `${place} (body): ${s.slice(0, 10)}…`),
      ]);
      console.info(
        `secrets (${engine}): ${secrets.length} keys, ${bodies.length} responses, ${Object.values(places).reduce((n, t) => n + t.length, 0)} characters searched`,
      );
      expect(found).toEqual([]);
    } finally {
      await release();
    }
  });
});

/** Every file in the PGlite data directory, as Latin-1 so any byte sequence survives. */
function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path).toString('latin1'))
    .join('\n');
}

/** Every text-like column of every table in the public schema, as text. */
async function everyTextColumn(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      "select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb', 'bytea', 'ARRAY')",
    );
    const texts: string[] = [];
    for (const { table_name, column_name } of rows) {
      const result = await client.query(`select "${column_name}"::text as v from "${table_name}"`);
      texts.push(...result.rows.map((r: { v: string | null }) => r.v ?? ''));
    }
    return texts.join('\n');
  } finally {
    await client.end();
  }
}
