import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection. Node started without `--expose-gc` (as test workers are) still has
 * V8's collector: the flag set at run time gives a new context its `gc`.
 */
function garbageCollector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap bytes (array buffers included) that what `build` returns keeps alive, after full collections. */
export function retainedBytes(build: () => unknown): number {
  const gc = garbageCollector();
  const used = () => {
    gc();
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = used();
  const kept = build();
  const after = used();
  // Read after measuring, so `kept` is alive when the heap is measured.
  if (kept === undefined) throw new Error('build must return what it keeps');
  return after - before;
}
