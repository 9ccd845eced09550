import { describe, expect, it } from 'vitest';
import { UsageRecorder } from '../../../src/keys/check/usage-recorder.ts';
import { FakeKeyRepository, NO_COUNTS } from '../../support/key-check-kit.ts';

/** The write-behind of last use: the key check only touches a map; flushes write one batch. */
describe('UsageRecorder', () => {
  const recorder = (onError: (error: unknown) => void = () => {}) => {
    const repository = new FakeKeyRepository();
    return {
      repository,
      usage: new UsageRecorder(repository.asRepository(), NO_COUNTS, 60_000, { failed: onError, succeeded() {} }),
    };
  };

  it('coalesces many uses of a key into one row of one write', async () => {
    const { repository, usage } = recorder();
    for (let i = 0; i < 100; i++) usage.touch('k1', 1_000 + i);
    usage.touch('k2', 5_000);
    await usage.flush();
    expect(repository.usageWrites).toEqual([
      new Map([
        ['k1', 1_099],
        ['k2', 5_000],
      ]),
    ]);
  });

  it('writes the newest use of a key: the last touch wins', async () => {
    const { repository, usage } = recorder();
    usage.touch('k1', 1_000);
    usage.touch('k1', 3_000);
    await usage.flush();
    expect(repository.usageWrites).toEqual([new Map([['k1', 3_000]])]);
    // touch() does not compare (the hot path stays one map write): a touch out of clock order wins too.
    usage.touch('k1', 5_000);
    usage.touch('k1', 4_000);
    await usage.flush();
    expect(repository.usageWrites.at(-1)).toEqual(new Map([['k1', 4_000]]));
  });

  it('writes nothing when nothing was used', async () => {
    const { repository, usage } = recorder();
    await usage.flush();
    expect(repository.usageWrites).toEqual([]);
  });

  it('keeps a failed batch for the next flush, the newer of the failed and the fresh timestamps winning', async () => {
    const errors: unknown[] = [];
    const { repository, usage } = recorder((error) => errors.push(error));
    usage.touch('k1', 1_000);
    usage.touch('k2', 9_000);
    repository.failUsageWrites = true;
    await usage.flush();
    expect(errors).toEqual([new Error('connection terminated')]);
    expect(repository.usageWrites).toEqual([]);
    usage.touch('k1', 2_000); // newer than the failed one
    repository.failUsageWrites = false;
    await usage.flush();
    expect(repository.usageWrites).toEqual([
      new Map([
        ['k1', 2_000],
        ['k2', 9_000],
      ]),
    ]);
  });

  it('does not let a failed batch overwrite a newer timestamp touched while it was being written', async () => {
    const { repository, usage } = recorder();
    usage.touch('k1', 1_000);
    repository.failUsageWrites = true;
    const failing = usage.flush();
    usage.touch('k1', 5_000); // arrives while the failing write is in flight
    await failing;
    repository.failUsageWrites = false;
    await usage.flush();
    expect(repository.usageWrites).toEqual([new Map([['k1', 5_000]])]);
  });

  it('flushes what is pending on stop()', async () => {
    const { repository, usage } = recorder();
    usage.start();
    usage.touch('k1', 7_000);
    await usage.stop();
    expect(repository.usageWrites).toEqual([new Map([['k1', 7_000]])]);
  });
});
