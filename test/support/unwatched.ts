import type { RunReport } from '../../src/shared/failure-streak.ts';

/** For a Redis connection whose failures a test does not look at (it asserts on what they cause instead). */
export const UNWATCHED: RunReport = { failed: () => undefined, succeeded: () => undefined };
