import type { FastifyPluginCallback } from 'fastify';

/** What the rest of airkey sees of a running SDK; nothing here imports it. */
export type Tracing = {
  /** @fastify/otel's plugin: the server span of every request. */
  fastifyPlugin: FastifyPluginCallback;
  /** Exports what is pending (bounded in time) and stops. */
  shutdown(): Promise<void>;
};
