import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './handle.ts';

const dialect = new PgDialect();

/** Runs one statement where the store is, and answers with the driver's own result. */
export type RunStatement = (statement: { type: 'sql'; text: string; params: unknown[] }) => Promise<unknown>;

/**
 * A store held by another thread, as a repository reads it: `execute` only, each statement sent
 * there (the embedded request log's store, src/request-log/writer-worker.ts). Transactions do not
 * cross threads: work that needs one runs in that thread.
 */
export function threadDb(run: RunStatement): Db {
  const execute = (query: SQL) => {
    const { sql, params } = dialect.sqlToQuery(query);
    return run({ type: 'sql', text: sql, params });
  };
  return { execute } as unknown as Db;
}
