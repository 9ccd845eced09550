import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import type { Database } from '../../../src/db/handle.ts';
import { migratedDataDir } from '../../support/databases.ts';

/** PGlite has no autovacuum: airkey analyzes the tables that changed, on open and in housekeeping. */
describe('planner statistics on the embedded database', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  const rows = async (query: ReturnType<typeof sql>) => {
    const result = await database!.db.execute(query);
    return (result as { rows: Array<Record<string, unknown>> }).rows;
  };
  const addRows = (count: number) =>
    database!.db.execute(sql`insert into planner_probe select g, repeat('x', 100) from generate_series(1, ${count}) g`);
  const estimatedRows = async () =>
    Number((await rows(sql`select reltuples from pg_class where relname = 'planner_probe'`))[0]?.reltuples);

  it('analyzes a table that grew by more than a tenth, and leaves it alone while it has not', async () => {
    database = await openDatabase({ dataDir: ':memory:' });
    await database.db.execute(sql`create table planner_probe (id int, padding text)`);
    await addRows(2_000);
    expect(await database.refreshStatistics()).toEqual(['planner_probe']);
    expect(await estimatedRows()).toBe(2_000);

    expect(await database.refreshStatistics()).toEqual([]);
    await addRows(50);
    expect(await database.refreshStatistics()).toEqual([]);
    expect(await estimatedRows()).toBe(2_000);

    await addRows(1_000);
    expect(await database.refreshStatistics()).toEqual(['planner_probe']);
    expect(await estimatedRows()).toBe(3_050);
  });

  it('analyzes on open what changed while it was closed, and nothing once it is up to date', async () => {
    const dataDir = migratedDataDir();
    database = await openDatabase({ dataDir });
    await database.db.execute(sql`create table planner_probe (id int, padding text)`);
    await addRows(5_000);
    await database.close();

    database = await openDatabase({ dataDir });
    expect(await estimatedRows()).toBe(5_000);
    expect(await database.refreshStatistics()).toEqual([]);
    await database.close();

    database = await openDatabase({ dataDir });
    expect(await database.refreshStatistics()).toEqual([]);
  });
});
