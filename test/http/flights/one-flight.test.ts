import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.ts';
import { h, key, all, useFlights } from './flights-fixture.ts';

describe('flights API: one flight', () => {
  useFlights();

  it('gets one flight by id', async () => {
    const flight = all[7]!;
    const response = await h.api(key, `/api/v1/flights/${flight.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(flight);
  });

  it('answers 404 not_found for an id that is unknown or not even a UUID', async () => {
    for (const id of [crypto.randomUUID(), 'nope', 'DA1234']) expectProblem(await h.api(key, `/api/v1/flights/${id}`), 404, 'not_found');
  });
});
