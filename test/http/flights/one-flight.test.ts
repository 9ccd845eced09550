import { describe, expect, it } from 'vitest';
import type { FlightPage } from '../../../src/flights/flight-schemas.ts';
import { json, useHarness } from '../../support/use.ts';
import { ENGINES } from '../../support/databases.ts';
import { expectProblem } from '../../support/problems.ts';
import { h, key, all, useFlights, type Flight } from './flights-fixture.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';

describe('flights API: one flight', () => {
  useFlights();

  it('gets one flight by id', async () => {
    const flight = all[7]!;
    const response = await h.api(key, `/api/v1/flights/${flight.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(flight);
  });

  it('answers 404 not_found for an id that is unknown or not even a UUID', async () => {
    for (const id of [crypto.randomUUID(), 'nope', 'DA1234'])
      expectProblem(await h.api(key, `/api/v1/flights/${id}`), 404, 'not_found');
  });
});

describe.each(ENGINES)('flights API: instants (%s)', (engine) => {
  const engineHarness = useHarness({ engine });

  it('shows departure and arrival exactly as stored, to the millisecond', async () => {
    const admin = await engineHarness.signedIn();
    const ownKey = (await engineHarness.createKey(admin)).secret;
    const departure = '2026-11-23T08:05:00.250Z';
    const arrival = '2026-11-23T10:40:09.007Z';
    await engineHarness.services.flights.seed(SYSTEM_ACTOR, [
      {
        tenantId: admin.tenantId,
        flightNumber: 'DA900',
        origin: 'DUB',
        destination: 'JFK',
        scheduledDeparture: new Date(departure),
        scheduledArrival: new Date(arrival),
        status: 'scheduled',
        aircraftRegistration: 'EI-DAA',
        aircraftType: 'A320',
      },
    ]);
    const listed = json<FlightPage>(await engineHarness.api(ownKey, '/api/v1/flights')) as { data: Flight[] };
    expect(listed.data).toEqual([
      expect.objectContaining({ flight_number: 'DA900', scheduled_departure: departure, scheduled_arrival: arrival }),
    ]);
    const one = await engineHarness.api(ownKey, `/api/v1/flights/${listed.data[0]!.id}`);
    expect(one.json()).toMatchObject({ scheduled_departure: departure, scheduled_arrival: arrival });
  });
});
