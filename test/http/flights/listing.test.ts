import { describe, expect, it } from 'vitest';
import { matching, anyString, json } from '../../support/use.ts';
import type { FlightPage } from '../../../src/flights/flight-schemas.ts';
import { FLIGHT_STATUSES } from '../../../src/flights/flight-schemas.ts';
import { generateFlights } from '../../../src/flights/flight-seeder.ts';
import { expectProblem } from '../../support/problems.ts';
import { h, key, all, list, BASE, HOUR, useFlights } from './flights-fixture.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';

describe('flights API: listing and filters', () => {
  useFlights();

  it('returns flights in the documented shape, ordered by departure then id', () => {
    expect(all).toHaveLength(37);
    for (const flight of all) {
      expect(flight).toEqual({
        id: matching(/^[0-9a-f-]{36}$/),
        flight_number: matching(/^DA\d+$/),
        origin: matching(/^[A-Z]{3}$/),
        destination: matching(/^[A-Z]{3}$/),
        scheduled_departure: matching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        scheduled_arrival: matching(/Z$/),
        status: anyString(),
        aircraft: { registration: anyString(), type: 'A20N' },
      });
      expect(FLIGHT_STATUSES).toContain(flight.status);
    }
    const expected = [...all].sort(
      (a, b) => a.scheduled_departure.localeCompare(b.scheduled_departure) || a.id.localeCompare(b.id),
    );
    expect(all.map((f) => f.id)).toEqual(expected.map((f) => f.id));
  });

  it('defaults to 50 per page and bounds limit to 1–500', async () => {
    const busy = await h.signedIn();
    await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(busy.tenantId, 60, h.clock.now()));
    const busyKey = (await h.createKey(busy)).secret;
    const first = json<FlightPage>(await h.api(busyKey, '/api/v1/flights'));
    expect(first.data).toHaveLength(50);
    expect(first.next_cursor).toEqual(anyString());
    expect((await list('?limit=1')).data).toHaveLength(1);
    expect((await list('?limit=500')).data).toHaveLength(37);
    for (const bad of ['0', '501', '-1', '1.5', 'ten']) {
      const body = expectProblem(await h.api(key, `/api/v1/flights?limit=${bad}`), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toEqual(['limit']);
    }
  });

  it('bounds departures as [from, to): from is inclusive, to is exclusive', async () => {
    const from = new Date(BASE + 2 * HOUR).toISOString();
    const to = new Date(BASE + 5 * HOUR).toISOString();
    const page = await list(`?from=${from}&to=${to}&limit=500`);
    const expected = all.filter((f) => f.scheduled_departure >= from && f.scheduled_departure < to);
    expect(expected.length).toBeGreaterThan(0);
    expect(page.data.map((f) => f.id)).toEqual(expected.map((f) => f.id));
    expect(page.data.some((f) => f.scheduled_departure === from)).toBe(true);
    expect(page.data.some((f) => f.scheduled_departure === to)).toBe(false);
    expect((await list(`?from=${from}&to=${from}`)).data).toEqual([]);
    const dateOnly = await list('?from=2026-11-22&to=2026-11-23&limit=500');
    expect(dateOnly.data).toHaveLength(37);
  });

  it('filters by origin and destination (case-insensitive), status and flight number', async () => {
    const lhr = await list('?origin=lhr&limit=500');
    expect(lhr.data.map((f) => f.id)).toEqual(all.filter((f) => f.origin === 'LHR').map((f) => f.id));
    const toAms = await list('?destination=AMS&origin=DUB&limit=500');
    expect(toAms.data.map((f) => f.id)).toEqual(
      all.filter((f) => f.destination === 'AMS' && f.origin === 'DUB').map((f) => f.id),
    );
    for (const status of FLIGHT_STATUSES) {
      const page = await list(`?status=${status}&limit=500`);
      expect(
        page.data.map((f) => f.id),
        status,
      ).toEqual(all.filter((f) => f.status === status).map((f) => f.id));
    }
    const one = await list('?flight_number=da107');
    expect(one.data.map((f) => f.flight_number)).toEqual(['DA107']);
  });

  it('refuses impossible calendar dates in from and to rather than rolling them over', async () => {
    for (const query of [
      'from=2026-02-30',
      'to=2026-11-31',
      'from=2026-11-31T00:00:00Z',
      'from=2026-11-22T24:00:00Z',
    ]) {
      const body = expectProblem(await h.api(key, `/api/v1/flights?${query}`), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toEqual([query.split('=')[0]]);
    }
    expect((await h.api(key, '/api/v1/flights?from=2028-02-29&to=2028-03-01T00:00:00%2B02:00')).statusCode).toBe(200);
  });
});
