import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';

/** docs/configuration.md: the webhook settings, read once at start; a bad value stops the start with its reason. */
describe('webhook configuration', () => {
  it('defaults to the documented schedule, timeout and sweep interval', () => {
    const config = loadConfig({});
    expect(config.webhookRetryScheduleMs).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect([config.webhookTimeoutMs, config.sweepIntervalMs, config.webhookAllowPrivate]).toEqual([
      10_000,
      60_000,
      false,
    ]);
  });

  it('reads a schedule of waits with units', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '50ms, 2s,1m,1h,1d' }).webhookRetryScheduleMs).toEqual([
      50, 2_000, 60_000, 3_600_000, 86_400_000,
    ]);
  });

  it.each(['5', '5x', '-5s', '5s,,5m', '2d', '0s', 'soon'])('refuses WEBHOOK_RETRY_SCHEDULE=%s at start', (raw) => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: raw })).toThrow(ConfigError);
  });

  it('accepts AIRKEY_SECRET_KEY only as base64 of 32 bytes', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ AIRKEY_SECRET_KEY: key }).secretKey).toBe(key);
    expect(() => loadConfig({ AIRKEY_SECRET_KEY: Buffer.alloc(16).toString('base64') })).toThrow(ConfigError);
    expect(() => loadConfig({ AIRKEY_SECRET_KEY: 'not base64!' })).toThrow(ConfigError);
  });
});
