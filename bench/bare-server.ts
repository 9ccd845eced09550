/**
 * The reference: a bare Fastify 5 server with request logging on at the same level (Fastify's own
 * two lines per request, to this process's stdout, which the bench discards). GET /whoami returns
 * the same JSON body as airkey's whoami; GET /flights runs the same list query through the same
 * driver and maps the rows to the same JSON: `pg` on the same PostgreSQL database, or an
 * in-process PGlite (on disk, as airkey's is) holding the same rows. GET /lookup finds the key in
 * X-API-Key by its digest with one query per request (the cold path's reference, PostgreSQL).
 * No key check, no schemas, no hooks. The bench sends it the same requests as airkey, X-API-Key
 * included (an unread header still costs the parser and the client), so only the server differs.
 * GET /whoami-quota and /whoami-limited send a limited key's output (below).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyReply } from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER } from '../src/db/handle.ts';
import { generateFlights } from '../src/flights/flight-seeder.ts';
import { CursorCodec } from '../src/shared/cursor.ts';

export type BareOptions = {
  whoami: unknown;
  engine: 'none' | 'pglite' | 'postgres';
  databaseUrl?: string;
  tenantId: string;
  flightsNow: string;
};

const options = await new Promise<BareOptions>((resolve) =>
  process.once('message', (message) => resolve(message as BareOptions)),
);
const LIST = `select id, flight_number, origin, destination, scheduled_departure, scheduled_arrival, status,
  aircraft_registration, aircraft_type from flights where tenant_id = $1
  order by scheduled_departure, id limit $2`;

type Query = (text: string, values: unknown[]) => Promise<Array<Record<string, unknown>>>;
let query: Query | undefined;
if (options.engine === 'postgres') {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
  query = async (text, values) => (await pool.query<Record<string, unknown>>(text, values)).rows;
} else if (options.engine === 'pglite') {
  // On disk like airkey's (a data directory, not memory): PGlite's file-system work is part of
  // what the engine costs.
  const db = new PGlite(mkdtempSync(join(tmpdir(), 'airkey-bare-')));
  await migrate(drizzle(db), { migrationsFolder: MIGRATIONS_FOLDER });
  await db.query('insert into tenants (id, slug, name) values ($1, $2, $3)', [options.tenantId, 'bench', 'Bench Air']);
  for (const row of generateFlights(options.tenantId, 2000, new Date(options.flightsNow))) {
    await db.query(
      `insert into flights (tenant_id, flight_number, origin, destination, scheduled_departure, scheduled_arrival, status, aircraft_registration, aircraft_type)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        row.tenantId,
        row.flightNumber,
        row.origin,
        row.destination,
        row.scheduledDeparture,
        row.scheduledArrival,
        row.status,
        row.aircraftRegistration,
        row.aircraftType,
      ],
    );
  }
  await db.exec('analyze'); // as airkey does after seeding: the planner needs the row counts
  query = async (text, values) => (await db.query<Record<string, unknown>>(text, values)).rows;
}

// The cold path's reference: the key's row, its tenant and its creator by digest, one query per request.
const LOOKUP = `select k.*, t.slug, t.name as tenant_name, t.key_authority, u.email, u.roles
  from api_keys k join tenants t on t.id = k.tenant_id left join users u on u.id = k.created_by
  where k.secret_digest = $1 limit 1`;

const cursors = new CursorCodec(randomBytes(32).toString('hex'));
const app = Fastify({ logger: { level: 'info' } });
app.get('/whoami', () => Promise.resolve(options.whoami));
app.get('/flights', async (request) => {
  const limit = Number((request.query as { limit?: string }).limit ?? 50);
  const rows = await query!(LIST, [options.tenantId, limit + 1]);
  const page = rows.slice(0, limit).map((row) => ({
    id: row.id as string,
    flight_number: row.flight_number as string,
    origin: row.origin as string,
    destination: row.destination as string,
    scheduled_departure: (row.scheduled_departure as Date).toISOString(),
    scheduled_arrival: (row.scheduled_arrival as Date).toISOString(),
    status: row.status as string,
    aircraft: { registration: row.aircraft_registration as string, type: row.aircraft_type as string },
  }));
  const last = page.at(-1);
  const scope = JSON.stringify([options.tenantId]);
  return {
    data: page,
    next_cursor:
      rows.length > limit && last
        ? cursors.encode({ d: Date.parse(last.scheduled_departure), i: last.id }, scope)
        : null,
  };
});
app.get('/lookup', async (request, reply) => {
  const secret = request.headers['x-api-key'];
  const [row] =
    typeof secret === 'string' ? await query!(LOOKUP, [createHash('sha256').update(secret).digest('hex')]) : [];
  if (!row) return reply.code(401).send({ status: 401 });
  return {
    key: { id: row.id, name: row.name, hint: row.hint },
    tenant: { id: row.tenant_id, slug: row.slug, name: row.tenant_name },
  };
});

/**
 * What a limited key's whoami sends beyond an unlimited one's (docs/keys.md (Rate limits, Quotas)), on the bare route:
 * the two RateLimit fields and `limits`, with new numbers on every request, against the same body
 * with no limits. bench/quotas.ts prices airkey's limited whoami against what this output costs
 * Fastify itself.
 */
const GENEROUS = 1_000_000_000;
const unlimited = { ...(options.whoami as object), limits: { rate_limit: null, quota: null } };
const hourEnd = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
const today = new Date();
const monthEnd = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1);
const monthSeconds = (monthEnd - Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)) / 1000;
const [HOUR_END, MONTH_END] = [new Date(hourEnd).toISOString(), new Date(monthEnd).toISOString()];
// Policies and instants as text once, as airkey keeps them per limit and window.
const QUOTA_POLICY = `"quota";q=${GENEROUS};w=${monthSeconds}`;
const BOTH_POLICY = `"key";q=${GENEROUS};w=3600, ${QUOTA_POLICY}`;
let spent = 0;
// Each side builds its body object per request, as a limited one must.
app.get('/whoami-unlimited', () => Promise.resolve({ ...unlimited }));
app.get('/whoami-quota', (_request, reply) => Promise.resolve(limitedWhoami(reply, false)));
app.get('/whoami-limited', (_request, reply) => Promise.resolve(limitedWhoami(reply, true)));

function limitedWhoami(reply: FastifyReply, withRateLimit: boolean) {
  spent++;
  const now = Date.now();
  const quotaField = `"quota";r=${GENEROUS - spent};t=${Math.ceil((monthEnd - now) / 1000)}`;
  const quota = {
    requests: GENEROUS,
    period: 'month',
    remaining: GENEROUS - spent,
    resets_at: MONTH_END,
  };
  if (!withRateLimit) {
    reply.header('ratelimit-policy', QUOTA_POLICY).header('ratelimit', quotaField);
    return { ...unlimited, limits: { rate_limit: null, quota } };
  }
  reply
    .header('ratelimit-policy', BOTH_POLICY)
    .header('ratelimit', `"key";r=${GENEROUS - spent};t=${Math.ceil((hourEnd - now) / 1000)}, ${quotaField}`);
  const rateLimit = {
    requests: GENEROUS,
    window: '1h',
    remaining: GENEROUS - spent,
    resets_at: HOUR_END,
  };
  return { ...unlimited, limits: { rate_limit: rateLimit, quota } };
}

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
