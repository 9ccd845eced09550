import type { PGlite } from '@electric-sql/pglite';

/**
 * The tables whose planner statistics are missing or stale: never analyzed though they hold rows,
 * or grown or shrunk by more than a tenth of their pages (and by more than a few, so a small table
 * is not analyzed again for every row) since they last were. The catalog keeps `relpages` and
 * `reltuples` across restarts; PGlite keeps no activity counters, so the page count stands in for
 * autovacuum's count of changed rows.
 */
const STALE_TABLES = `
  select coalesce(string_agg(format('%I', c.relname), ', ' order by c.relname), '') as tables
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) size
  where n.nspname = 'public' and c.relkind = 'r'
    and ((c.reltuples < 0 and size.pages > 0) or abs(size.pages - c.relpages) > greatest(4, c.relpages / 10))`;

/**
 * PGlite runs no autovacuum, so nothing else refreshes the planner's statistics: without them a
 * list query reads and sorts a whole table instead of walking its index. Analyzing every table
 * costs about 0.2 s even when nothing changed, and the single connection waits meanwhile, so only
 * the stale ones are analyzed. Resolves with the tables analyzed.
 */
export async function refreshPlannerStatistics(client: PGlite): Promise<string[]> {
  const { rows } = await client.query<{ tables: string }>(STALE_TABLES);
  const tables = rows[0]?.tables ?? '';
  if (tables === '') return [];
  await client.exec(`analyze ${tables}`);
  return tables.split(', ');
}
