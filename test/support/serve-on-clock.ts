import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import type { Clock } from '../../src/shared/clock.ts';

/**
 * `airkey serve` on a clock a scale test chooses: the system clock moved by AIRKEY_TEST_CLOCK_SHIFT_MS.
 * Every instance of a test gets the same shift, so they agree on the time as real instances do,
 * and a test can put itself in the middle of a day instead of waiting out a midnight. The product
 * reads no such variable: the shift reaches the services through their `clock` override only.
 */
const shiftMs = Number(process.env.AIRKEY_TEST_CLOCK_SHIFT_MS ?? 0);
const clock: Clock = { now: () => new Date(Date.now() + shiftMs), nowMs: () => Date.now() + shiftMs };

const server = await startServer(loadConfig(), { overrides: { clock } });
const shutdown = () =>
  void server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
