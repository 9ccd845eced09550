import { describe, expect, it } from 'vitest';
import { LegacyKeys } from '../../../src/keys/format/legacy-keys.ts';

/** A storage stand-in that answers from a script: true/false, or an Error to throw. */
function scripted(...answers: Array<boolean | Error>) {
  const source = {
    asked: 0,
    anyLegacyKey(): Promise<boolean> {
      const answer = answers[Math.min(source.asked++, answers.length - 1)]!;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return source;
}

describe('LegacyKeys: may a key without a checksum still exist?', () => {
  it('says "may exist" before anyone has asked', () => {
    expect(new LegacyKeys(scripted(false)).noneRemain).toBe(false);
  });

  it('keeps "may exist" while storage cannot answer (database down at start), and learns "none" once it can', async () => {
    const source = scripted(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), false);
    const legacy = new LegacyKeys(source);
    await legacy.refresh();
    expect(legacy.noneRemain).toBe(false);
    await legacy.refresh();
    expect(legacy.noneRemain).toBe(true);
  });

  it('keeps asking while legacy keys remain, and never asks again once none do', async () => {
    const source = scripted(true, true, false);
    const legacy = new LegacyKeys(source);
    await legacy.refresh();
    await legacy.refresh();
    expect(legacy.noneRemain).toBe(false);
    await legacy.refresh();
    expect(legacy.noneRemain).toBe(true);
    await Promise.all([legacy.refresh(), legacy.refresh()]);
    expect(source.asked).toBe(3);
  });

  it('runs overlapping refreshes one after another, so the last answer wins', async () => {
    const source = scripted(true, false);
    const legacy = new LegacyKeys(source);
    await Promise.all([legacy.refresh(), legacy.refresh()]);
    expect(source.asked).toBe(2);
    expect(legacy.noneRemain).toBe(true);
  });

  it('rejects a fault that is not the database being away, and still answers the next refresh', async () => {
    const source = scripted(new TypeError('anyLegacyKey is broken'), false);
    const legacy = new LegacyKeys(source);
    await expect(legacy.refresh()).rejects.toThrow('anyLegacyKey is broken');
    expect(legacy.noneRemain).toBe(false);
    await legacy.refresh();
    expect(legacy.noneRemain).toBe(true);
  });
});
