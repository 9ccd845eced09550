import { describe, expect, it } from 'vitest';
import { keyFixture as key } from './key-fixture.ts';
import { afterRoll } from './roll-api.ts';

describe('the key list after a roll', () => {
  const list = {
    authority: 'creator' as const,
    data: [key({ id: 'b', name: 'Newer' }), key({ id: 'a', name: 'Crew sync' })],
  };
  const added = key({ id: 'c', name: 'Crew sync', hint: 'ask_…New1' });

  it('puts the new key first and shows the old one retiring in its place', () => {
    const retiring = key({ id: 'a', retires_at: '2026-11-23T10:00:00.000Z' });
    const after = afterRoll(list, 'a', added, retiring);
    expect(after.data.map((each) => each.id)).toEqual(['c', 'b', 'a']);
    expect(after.data[2]!.retires_at).toBe('2026-11-23T10:00:00.000Z');
  });

  it('drops the old key when it stopped at once (no overlap)', () => {
    expect(afterRoll(list, 'a', added, null).data.map((each) => each.id)).toEqual(['c', 'b']);
  });
});
