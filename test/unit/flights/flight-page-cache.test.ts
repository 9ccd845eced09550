import { describe, expect, it } from 'vitest';
import { FlightPageCache } from '../../../src/flights/flight-page-cache.ts';

const page = (id: string) => ({ data: [], next_cursor: id });

describe('flight page cache', () => {
  it('keeps a page until the tenant’s next write, and only that tenant’s pages go', () => {
    const cache = new FlightPageCache(10);
    cache.fill('a', 'q', page('a1'), cache.version('a'));
    cache.fill('b', 'q', page('b1'), cache.version('b'));
    expect(cache.get('a', 'q')).toEqual(page('a1'));
    cache.changed('a');
    expect(cache.get('a', 'q')).toBeUndefined();
    expect(cache.get('b', 'q')).toEqual(page('b1'));
  });

  it('does not keep a page read while a write to its tenant ran', () => {
    const cache = new FlightPageCache(10);
    const before = cache.version('a');
    cache.changed('a'); // the write starts while the read is under way
    cache.fill('a', 'q', page('stale'), before);
    expect(cache.get('a', 'q')).toBeUndefined();
    cache.changed('a'); // and ends
    const after = cache.version('a');
    cache.fill('a', 'q', page('fresh'), after);
    expect(cache.get('a', 'q')).toEqual(page('fresh'));
  });

  it('holds at most the pages it was sized for', () => {
    const cache = new FlightPageCache(2);
    for (const q of ['1', '2', '3']) cache.fill('a', q, page(q), 0);
    expect(['1', '2', '3'].map((q) => cache.get('a', q)?.next_cursor)).toEqual([undefined, '2', '3']);
  });
});
