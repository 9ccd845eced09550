import { useRunRoot } from '../test/support/run-root.ts';

/**
 * A bench run's temporary folders (its servers' data directories) under one root, removed as the
 * run ends, however it ends. Without it, each run left gigabytes in /tmp.
 */
export function temporaryRunRoot(): void {
  const remove = useRunRoot('airkey-bench-run-');
  process.on('exit', remove);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      remove();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
}
