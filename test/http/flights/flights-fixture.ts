import { beforeAll, expect } from 'vitest';
import { FLIGHT_STATUSES } from '../../../src/flights/flight-schemas.ts';
import type { Harness } from '../../support/harness.ts';
import { json, useHarness } from '../../support/use.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';

export type Flight = {
  id: string;
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure: string;
  scheduled_arrival: string;
  status: string;
  aircraft: { registration: string; type: string };
};

export const BASE = Date.UTC(2026, 10, 22, 6);
export const HOUR = 3_600_000;
const ORIGINS = ['LHR', 'DUB', 'CDG'];

// Live bindings: set by the hooks useFlights() registers, read by the test file that called it.
export let h: Harness;
export let key: string;
export let all: Flight[];
export let tenantId: string;

/** A tenant with 37 flights, many sharing a departure time (so pages must break ties by id), and a key. */
export function useFlights(): void {
  h = useHarness();
  beforeAll(async () => {
    const admin = await h.signedIn();
    tenantId = admin.tenantId;
    key = (await h.createKey(admin)).secret;
    const rows = Array.from({ length: 37 }, (_, i) => ({
      tenantId,
      flightNumber: `DA${100 + i}`,
      origin: ORIGINS[i % 3]!,
      destination: i % 2 === 0 ? 'JFK' : 'AMS',
      scheduledDeparture: new Date(BASE + Math.floor(i / 4) * HOUR),
      scheduledArrival: new Date(BASE + Math.floor(i / 4) * HOUR + 2 * HOUR),
      status: FLIGHT_STATUSES[i % FLIGHT_STATUSES.length]!,
      aircraftRegistration: `EI-F${String.fromCharCode(65 + (i % 26))}`,
      aircraftType: 'A20N',
    }));
    await h.services.flights.seed(SYSTEM_ACTOR, rows);
    all = json<{ data: Flight[] }>(await h.api(key, '/api/v1/flights?limit=500')).data;
  });
}

/** One page of the listing with the fixture's key; fails the test unless it is a 200. */
export async function list(query: string) {
  const response = await h.api(key, `/api/v1/flights${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Flight[]; next_cursor: string | null }>();
}

/** Follows next_cursor from the first page to the last. */
export async function everyPage(query: string, limit: number): Promise<{ pages: Flight[][]; cursors: string[] }> {
  const pages: Flight[][] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: Flight[]; next_cursor: string | null } = await list(
      `?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    pages.push(page.data);
    cursor = page.next_cursor;
    if (cursor) cursors.push(cursor);
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return { pages, cursors };
}
