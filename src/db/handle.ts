import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { Schema } from './tables.ts';

/** The Drizzle handle every repository takes; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseKind = 'pglite' | 'postgres';

/** A raw change-feed subscription (LISTEN); only PostgreSQL mode has other writers to hear. */
export type FeedHandlers = {
  onMessage(payload: string, channel: string): void;
  onState(listening: boolean): void;
  /** application_name prefix of the connection (`<prefix>-<pid>`); default `airkey-listener`. */
  name?: string;
  /** The query the heartbeat runs on the listening connection (default `select 1` every 250 ms). */
  heartbeat?: { text: string; values: unknown[]; everyMs?: number };
  /** After each heartbeat answered: `performance.now()` when it was sent. Every notification sent to
   * this connection before the heartbeat ran has been passed to `onMessage` by then. */
  onAlive?(sentAt: number): void;
};

/** One open database, whichever engine: what the rest of airkey sees of it. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Db;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  /** Brings the planner's statistics up to date where nothing else does; resolves with the tables analyzed. */
  refreshStatistics(): Promise<string[]>;
  /** Keeps a LISTEN connection open, reconnecting with backoff; resolves once first subscribed and
   * its first heartbeat answered. */
  listen(channels: readonly string[], handlers: FeedHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
