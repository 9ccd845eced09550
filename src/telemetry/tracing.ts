import type { FastifyPluginCallback } from 'fastify';
import { tracingWanted } from './settings.ts';

/** What the rest of airkey sees of a running SDK; nothing here imports it. */
export type Tracing = {
  /** @fastify/otel's plugin: the server span of every request. */
  fastifyPlugin: FastifyPluginCallback;
  /** Exports what is pending (bounded in time) and stops. */
  shutdown(): Promise<void>;
};

let active: Tracing | undefined;

/**
 * Starts the OpenTelemetry SDK when the standard variables ask for it, before the server's modules
 * load (instrumentation patches `pg` as it is first required). Otherwise loads nothing: tracing
 * off costs one environment check at start.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (active || !tracingWanted(env)) return active;
  const { startSdk } = await import('./sdk.ts');
  active = await startSdk(env);
  return active;
}

/** The running tracing, or undefined when airkey runs untraced. */
export function activeTracing(): Tracing | undefined {
  return active;
}

export async function stopTracing(): Promise<void> {
  const stopping = active?.shutdown();
  active = undefined;
  await stopping;
}
