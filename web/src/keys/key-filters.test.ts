import { describe, expect, it } from 'vitest';
import { filterKeys, isStatusFilter, matchesQuery, pageOf, pageSummary } from './key-filters.ts';
import { keyFixture as key } from './key-fixture.ts';

const now = new Date('2026-11-22T10:50:00.000Z');
const keys = [
  key({ id: 'a', name: 'Crew roster sync', hint: 'ask_…Ab12' }),
  key({
    id: 'b',
    name: 'Charter feed',
    hint: 'ask_…Zz99',
    enabled: false,
    status: 'disabled',
    disabled_reason: 'disabled_by_user',
  }),
  key({
    id: 'c',
    name: 'Old partner',
    hint: 'ask_…Qq00',
    status: 'expired',
    expires_at_time: '2026-11-20T00:00:00.000Z',
  }),
  key({ id: 'd', name: 'Rolled crew key', hint: 'ask_…Rr11', retires_at: '2026-11-23T10:00:00.000Z' }),
  key({
    id: 'e',
    name: 'Pasted in a gist',
    hint: 'ask_…Le4k',
    enabled: false,
    status: 'disabled',
    disabled_reason: 'leaked',
  }),
  key({ id: 'f', name: 'Retired yesterday', hint: 'ask_…Rt00', retires_at: '2026-11-21T10:00:00.000Z' }),
];
const ids = (list: { id: string }[]) => list.map((each) => each.id);

describe('searching keys', () => {
  it('finds by part of the name, whatever the case', () => {
    expect(ids(filterKeys(keys, 'CREW', 'all', now))).toEqual(['a', 'd']);
  });

  it('finds by hint, with the ellipsis typed as three dots or left out', () => {
    expect(matchesQuery(keys[0]!, 'ask_...ab12')).toBe(true);
    expect(matchesQuery(keys[0]!, 'ask_…Ab12')).toBe(true);
    expect(matchesQuery(keys[0]!, 'ab12')).toBe(true);
    expect(matchesQuery(keys[0]!, 'ab13')).toBe(false);
  });

  it('matches everything with an empty or blank query', () => {
    expect(filterKeys(keys, '   ', 'all', now)).toHaveLength(keys.length);
  });
});

describe('filtering keys by status', () => {
  it('enabled, disabled and expired follow the key’s status; a leaked key is disabled too', () => {
    expect(ids(filterKeys(keys, '', 'enabled', now))).toEqual(['a', 'd', 'f']);
    expect(ids(filterKeys(keys, '', 'disabled', now))).toEqual(['b', 'e']);
    expect(ids(filterKeys(keys, '', 'expired', now))).toEqual(['c']);
  });

  it('retiring means rolled and not yet retired; leaked means reported leaked', () => {
    expect(ids(filterKeys(keys, '', 'retiring', now))).toEqual(['d']);
    expect(ids(filterKeys(keys, '', 'leaked', now))).toEqual(['e']);
  });

  it('combines with the search', () => {
    expect(ids(filterKeys(keys, 'crew', 'retiring', now))).toEqual(['d']);
  });

  it('accepts only the known statuses', () => {
    expect(isStatusFilter('leaked')).toBe(true);
    expect(isStatusFilter('revoked')).toBe(false);
  });
});

describe('pages of 50', () => {
  const many = Array.from({ length: 1000 }, (_, index) => index);

  it('cuts 1,000 keys into 20 pages and says which rows show', () => {
    const second = pageOf(many, 2);
    expect(second.items[0]).toBe(50);
    expect(second.items).toHaveLength(50);
    expect(second.pages).toBe(20);
    expect(pageSummary(second, 1000)).toBe('Showing 51–100 of 1,000 keys');
  });

  it('clamps a page past the end to the last one (after a filter shrank the list)', () => {
    const page = pageOf(many.slice(0, 120), 9);
    expect(page.page).toBe(3);
    expect(page.items).toEqual([
      100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
    ]);
  });

  it('says how many of all keys match, and when none do', () => {
    expect(pageSummary(pageOf([1, 2, 3], 1), 1000)).toBe('3 of 1,000 keys match');
    expect(pageSummary(pageOf([1], 1), 1000)).toBe('1 of 1,000 keys matches');
    expect(pageSummary(pageOf([1], 1), 1)).toBe('1 key');
    expect(pageSummary(pageOf([], 1), 1000)).toBe('No keys match (1,000 in all)');
    expect(
      pageSummary(
        pageOf(
          Array.from({ length: 871 }, () => 0),
          1,
        ),
        1001,
      ),
    ).toBe('Showing 1–50 of 871 matching keys (1,001 in all)');
  });
});
