import type { RunReport } from '../../src/shared/failure-streak.ts';

/** For a flush that must not fail: a failure rejects the flush the test awaits. */
export const FAIL_ON_ERROR: RunReport = {
  failed(error) {
    throw error;
  },
  succeeded() {},
};

/** For a flush expected to fail: its errors, in order. */
export function collectInto(errors: unknown[]): RunReport {
  return { failed: (error) => void errors.push(error), succeeded() {} };
}
