import type { FastifyInstance } from 'fastify';
import type { EmbeddedClient } from '../spans/embedded-query-spans.ts';

/** What the rest of airkey sees of a running SDK; nothing here imports it. */
export type Tracing = {
  /** Adds the hooks that make a server span for each request the sampler keeps. */
  instrument(app: FastifyInstance): void;
  /** Database client spans for the embedded engine's queries (the pg driver's are instrumented already). */
  traceEmbeddedQueries: (client: EmbeddedClient, database: string) => void;
  /** Exports what is pending (bounded in time) and stops. */
  shutdown(): Promise<void>;
};
