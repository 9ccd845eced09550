import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.ts';
import { h, key, all, list, everyPage, useFlights } from './flights-fixture.ts';

describe('flights API: paging', () => {
  useFlights();

  it('pages through every flight with no duplicates and no gaps, across equal departure times', async () => {
    for (const limit of [1, 3, 4, 5, 36, 37]) {
      const { pages } = await everyPage('', limit);
      expect(
        pages.flat().map((f) => f.id),
        `limit ${limit}`,
      ).toEqual(all.map((f) => f.id));
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
  });

  it('ends with a null next_cursor when the last page is exactly full', async () => {
    const page = await list('?limit=37');
    expect(page.next_cursor).toBeNull();
  });

  it('pages a filtered listing with the same filters', async () => {
    const { pages } = await everyPage('origin=CDG', 2);
    expect(pages.flat().map((f) => f.id)).toEqual(all.filter((f) => f.origin === 'CDG').map((f) => f.id));
  });

  it('refuses a tampered cursor, a cursor for other filters and a cursor of another tenant with 400', async () => {
    const { next_cursor } = await list('?limit=5');
    const cursor = next_cursor!;
    const flipped = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4);
    for (const bad of [flipped, `${cursor}x`, cursor.split('.')[0]!, 'garbage']) {
      const body = expectProblem(
        await h.api(key, `/api/v1/flights?limit=5&cursor=${encodeURIComponent(bad)}`),
        400,
        'invalid_request',
      );
      expect(body.errors?.map((e) => e.path)).toEqual(['cursor']);
    }
    expectProblem(
      await h.api(key, `/api/v1/flights?limit=5&origin=LHR&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid_request',
    );
    const other = await h.signedIn();
    const otherKey = (await h.createKey(other)).secret;
    expectProblem(
      await h.api(otherKey, `/api/v1/flights?limit=5&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid_request',
    );
  });
});
