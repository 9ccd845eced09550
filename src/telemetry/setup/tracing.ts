import { tracingWanted } from './settings.ts';
import type { Tracing } from './tracing-handle.ts';

export type { Tracing } from './tracing-handle.ts';

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
