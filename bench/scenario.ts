/**
 * What a bench scenario is. A scenario module exports one `Scenario`; bench/run.ts lists them in
 * SCENARIOS, so another scenario is one import and one entry there. A scenario returns rows (each
 * with its target, bench/rows.ts); the loads it runs through bench/measure.ts count their own
 * answers, so it has no failure count to pass back.
 */
import type { AirkeyReady } from './airkey-server.ts';
import type { BareOptions } from './bare-server.ts';
import type { Server } from './measure.ts';
import type { Row } from './rows.ts';

export type Engine = 'pglite' | 'postgres';
export type Settings = { rounds: number; seconds: number; connections: number; log: (line: string) => void };

export type ScenarioContext = {
  engine: Engine;
  /** The engine's PostgreSQL database; undefined on PGlite. */
  databaseUrl: string | undefined;
  settings: Settings;
  /** The shared airkey server of this engine (1,000 keys by the end of the back-office scenario), started on first use. */
  subject: () => Promise<AirkeyReady>;
  /** The shared bare Fastify reference for `subject` (same database, same JSON), started on first use. */
  reference: () => Promise<string>;
  /** A server of the scenario's own (extra environment, e.g. KEY_CACHE_MAX_AGE_MS); stopped when the engine is done. */
  airkey: (env: Record<string, string>) => Promise<Server<AirkeyReady>>;
  bare: (options: Omit<BareOptions, 'flightsNow'>) => Promise<Server<{ url: string }>>;
  /** A line under the table (once, however many engines add it). */
  note: (text: string) => void;
};

export type Scenario = {
  /** For `--only=<name>`. */
  name: string;
  /** Names the rows reported as missing when the scenario cannot run on an engine. */
  title: string;
  engines: readonly Engine[];
  /**
   * Needs the machine to itself: the shared servers are stopped first (they start again on the
   * next use). `'long'`: also runs only with `--long` (or `--only=<name>`).
   */
  alone?: boolean;
  optIn?: 'long';
  run: (context: ScenarioContext) => Promise<Row[]>;
};
