import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/**
 * Process metrics (CPU, memory, event-loop lag, GC) belong to the process, not to a services
 * instance: one registry per process, created when the first app mounts /metrics, so tests that
 * build many instances do not start many event-loop monitors.
 */
export function processRegistry(): Registry {
  if (shared === undefined) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
