/**
 * The request log's reads on a large log (docs/request-log.md (Reading)), PostgreSQL only, with
 * --long (or --only=requestlog-queries): BENCH_REQUEST_LOG_ROWS entries (10,000,000) generated in
 * SQL, a millisecond apart, in blocks as the writer writes them, for one tenant's 100 keys and as many again for another tenant, then the
 * page of 50 under each filter, 40 times with varied values, through the service as the back office
 * calls it: p95 held to 100 ms; a key's view (its first 10) to 50 ms.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createServices } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import type { RequestLogFilter } from '../src/request-log/request-log-schemas.ts';
import { methodCode, outcomeCode } from '../src/request-log/stored-codes.ts';
import { SYSTEM_ACTOR } from '../src/shared/actor.ts';
import { signedInAs } from '../test/support/actors.ts';
import { percentile } from './measure.ts';
import { atMost, type Row } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';

const TIMES = 40;
const KEYS = 100;

export const requestLogQueries: Scenario = {
  name: 'requestlog-queries',
  title: '13. request log queries on 10 million entries',
  engines: ['postgres'],
  alone: true,
  optIn: 'long',
  async run({ databaseUrl, settings: s }) {
    const total = Number(process.env.BENCH_REQUEST_LOG_ROWS ?? 1e7);
    const config = {
      ...loadConfig({}),
      databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'airkey-bench-logq-')),
      logLevel: 'warn',
    };
    const services = await createServices(config);
    await services.start();
    try {
      const slug = `logq-${process.pid}-${Date.now()}`;
      const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, { name: 'Log Air', slug });
      const email = `${slug}@example.test`;
      await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
        email,
        name: 'Bench',
        password: 'bench-password-1',
        roles: ['system_administrator'],
      });
      const actor = signedInAs(await services.accounts.users.requireByEmail(email));
      const keys = Array.from({ length: KEYS }, () => randomUUID());
      const other = randomUUID();
      const db = services.database.db;
      s.log(`    generating ${fmt(total)} request log entries on PostgreSQL`);
      const started = performance.now();
      // Half this tenant's (100 keys), half another's, a millisecond apart, as the writer would make
      // them: a block per tenant and batch (2,000 entries, 2 s), one address /24 per 63,001 entries.
      await db.execute(sql`
        insert into request_log_blocks (block, tenant_id, first_at, last_at, entries, keys, statuses, outcomes,
          networks, id, at, credential, key_id, key_name, key_hint, method, path, route, status, outcome, address,
          user_agent, duration_ms, trace_id, mcp_method, mcp_tool)
        select gen_random_uuid(), tenant_id, min(at), max(at), count(*), array_agg(distinct key_id),
          array_agg(distinct status), array_agg(distinct outcome), array_agg(distinct network),
          array_agg(gen_random_uuid() order by at), array_agg(at order by at), array_agg(0::smallint order by at),
          array_agg(key_id order by at), array_agg('key'::text order by at), array_agg('ask_…0000'::text order by at),
          array_agg(${methodCode('GET')}::smallint order by at), array_agg(route order by at),
          array_agg(route order by at), array_agg(status order by at), array_agg(outcome order by at),
          array_agg(address order by at), array_agg('bench'::text order by at), array_agg(1.5::real order by at),
          array_agg(null::text order by at), array_agg(null::text order by at), array_agg(null::text order by at)
        from (
          select g / 2000 as batch, now() - g * interval '1 millisecond' as at,
            case when g % 2 = 0 then ${tenant.id}::uuid else ${other}::uuid end as tenant_id,
            (${`{${keys.join(',')}}`}::uuid[])[1 + (g / 2) % ${KEYS}] as key_id,
            case when g % 5 = 0 then '/api/v1/flights' else '/api/v1/whoami' end as route,
            (case when g % 50 = 0 then 429 when g % 97 = 0 then 401 else 200 end)::smallint as status,
            case when g % 50 = 0 then ${outcomeCode('rate_limited')}::smallint when g % 97 = 0
              then ${outcomeCode('rejected')}::smallint else ${outcomeCode('ok')}::smallint end as outcome,
            ('10.' || (g % 251) || '.' || ((g / 251) % 251) || '.' || ((g / 63001) % 251))::inet as address,
            (10 * 65536 + (g % 251) * 256 + (g / 251) % 251)::bigint as network
          from generate_series(1, ${total}) g) entries
        group by batch, tenant_id`);
      await db.execute(sql`analyze request_log_blocks`);
      s.log(`    generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);

      const hour = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
      const pick = <T>(values: readonly T[], i: number) => values[i % values.length]!;
      const filters: Array<[string, (i: number) => RequestLogFilter, number, number]> = [
        ['no filter', () => ({}), 50, 100],
        ['key', (i) => ({ key: pick(keys, i) }), 50, 100],
        ['outcome rate_limited', () => ({ outcome: 'rate_limited' }), 50, 100],
        ['status 401', () => ({ status: 401 }), 50, 100],
        ['route /api/v1/flights', () => ({ route: '/api/v1/flights' }), 50, 100],
        ['address /24', (i) => ({ address: `10.${i % 251}.${(i * 7) % 251}.0/24` }), 50, 100],
        ['time range (one hour)', (i) => ({ from: hour(2 + (i % 20)), to: hour(1 + (i % 20)) }), 50, 100],
        ["key view (a key's first 10)", (i) => ({ key: pick(keys, i * 3) }), 10, 50],
      ];
      const rows: Row[] = [];
      for (const [name, filterOf, limit, target] of filters) {
        const times: number[] = [];
        for (let i = 0; i < TIMES; i++) {
          const at = performance.now();
          await services.requestLog.reader.list(actor, filterOf(i), limit);
          times.push(performance.now() - at);
        }
        const p95 = percentile(times, 95);
        s.log(`    ${name}: p95 ${p95.toFixed(1)} ms`);
        rows.push({
          what: `13. request log on ${fmt(total)} entries (postgres): page of ${limit}, ${name}, p95 ms`,
          value: p95.toFixed(1),
          reference: '',
          ratio: '',
          measured: { value: p95, ratio: NaN },
          target: atMost(target, 'value', ' ms'),
        });
      }
      return rows;
    } finally {
      await services.close();
    }
  },
};
