import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLIGHT_STATUSES } from '../../src/flights/flight-schemas.ts';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

type Flight = {
  id: string;
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure: string;
  scheduled_arrival: string;
  status: string;
  aircraft: { registration: string; type: string };
};

const BASE = Date.UTC(2026, 10, 22, 6);
const HOUR = 3_600_000;
const ORIGINS = ['LHR', 'DUB', 'CDG'];

describe('flights API', () => {
  let h: Harness;
  let key: string;
  let all: Flight[];
  let tenantId: string;

  beforeAll(async () => {
    h = await createHarness();
    const admin = await h.signedIn();
    tenantId = admin.tenantId;
    key = (await h.createKey(admin)).secret;
    // 37 flights, many sharing a departure time, so pages must break ties by id.
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
    await h.services.flightRepository.insertMany(rows);
    all = (await h.api(key, '/api/v1/flights?limit=500')).json().data;
  });
  afterAll(async () => h.close());

  const list = async (query: string) => {
    const response = await h.api(key, `/api/v1/flights${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Flight[]; next_cursor: string | null }>();
  };

  async function everyPage(query: string, limit: number): Promise<{ pages: Flight[][]; cursors: string[] }> {
    const pages: Flight[][] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Flight[]; next_cursor: string | null } = await list(`?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      pages.push(page.data);
      cursor = page.next_cursor;
      if (cursor) cursors.push(cursor);
      expect(pages.length).toBeLessThan(100);
    } while (cursor);
    return { pages, cursors };
  }

  it('returns flights in the documented shape, ordered by departure then id', () => {
    expect(all).toHaveLength(37);
    for (const flight of all) {
      expect(flight).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        flight_number: expect.stringMatching(/^DA\d+$/),
        origin: expect.stringMatching(/^[A-Z]{3}$/),
        destination: expect.stringMatching(/^[A-Z]{3}$/),
        scheduled_departure: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        scheduled_arrival: expect.stringMatching(/Z$/),
        status: expect.any(String),
        aircraft: { registration: expect.any(String), type: 'A20N' },
      });
      expect(FLIGHT_STATUSES).toContain(flight.status);
    }
    const expected = [...all].sort((a, b) => a.scheduled_departure.localeCompare(b.scheduled_departure) || a.id.localeCompare(b.id));
    expect(all.map((f) => f.id)).toEqual(expected.map((f) => f.id));
  });

  it('defaults to 50 per page and bounds limit to 1–500', async () => {
    const busy = await h.signedIn();
    await h.services.flightRepository.insertMany(generateFlights(busy.tenantId, 60, h.clock.now()));
    const busyKey = (await h.createKey(busy)).secret;
    const first = (await h.api(busyKey, '/api/v1/flights')).json();
    expect(first.data).toHaveLength(50);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect((await list('?limit=1')).data).toHaveLength(1);
    expect((await list('?limit=500')).data).toHaveLength(37);
    for (const bad of ['0', '501', '-1', '1.5', 'ten']) {
      const body = expectProblem(await h.api(key, `/api/v1/flights?limit=${bad}`), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toEqual(['limit']);
    }
  });

  it('pages through every flight with no duplicates and no gaps, across equal departure times', async () => {
    for (const limit of [1, 3, 4, 5, 36, 37]) {
      const { pages } = await everyPage('', limit);
      expect(pages.flat().map((f) => f.id), `limit ${limit}`).toEqual(all.map((f) => f.id));
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
  });

  it('ends with a null next_cursor when the last page is exactly full', async () => {
    const page = await list('?limit=37');
    expect(page.next_cursor).toBeNull();
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
    expect(toAms.data.map((f) => f.id)).toEqual(all.filter((f) => f.destination === 'AMS' && f.origin === 'DUB').map((f) => f.id));
    for (const status of FLIGHT_STATUSES) {
      const page = await list(`?status=${status}&limit=500`);
      expect(page.data.map((f) => f.id), status).toEqual(all.filter((f) => f.status === status).map((f) => f.id));
    }
    const one = await list('?flight_number=da107');
    expect(one.data.map((f) => f.flight_number)).toEqual(['DA107']);
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
      const body = expectProblem(await h.api(key, `/api/v1/flights?limit=5&cursor=${encodeURIComponent(bad)}`), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toEqual(['cursor']);
    }
    expectProblem(await h.api(key, `/api/v1/flights?limit=5&origin=LHR&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_request');
    const other = await h.signedIn();
    const otherKey = (await h.createKey(other)).secret;
    expectProblem(await h.api(otherKey, `/api/v1/flights?limit=5&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_request');
  });

  it('gets one flight by id', async () => {
    const flight = all[7]!;
    const response = await h.api(key, `/api/v1/flights/${flight.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(flight);
  });

  it('answers 404 not_found for an id that is unknown or not even a UUID', async () => {
    for (const id of [crypto.randomUUID(), 'nope', 'DA1234']) expectProblem(await h.api(key, `/api/v1/flights/${id}`), 404, 'not_found');
  });

  it('refuses impossible calendar dates in from and to rather than rolling them over', async () => {
    for (const query of ['from=2026-02-30', 'to=2026-11-31', 'from=2026-11-31T00:00:00Z', 'from=2026-11-22T24:00:00Z']) {
      const body = expectProblem(await h.api(key, `/api/v1/flights?${query}`), 400, 'invalid_request');
      expect(body.errors?.map((e) => e.path)).toEqual([query.split('=')[0]]);
    }
    expect((await h.api(key, '/api/v1/flights?from=2028-02-29&to=2028-03-01T00:00:00%2B02:00')).statusCode).toBe(200);
  });

  it('tells a key who it is with whoami', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await h.createKey(admin, { name: 'whoami key', expires_at: '2027-01-01' });
    const tenant = (await admin.request('GET', '/backoffice/api/session')).json().user.tenant;
    const response = await h.api(secret, '/api/v1/whoami', 'bearer');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name },
      key: { id: api_key.id, name: 'whoami key', hint: api_key.hint, expires_at: '2027-01-01' },
      acts_as: { type: 'user', id: admin.userId, email: admin.email },
      permissions: ['flights:read'],
    });
  });

  it('publishes an OpenAPI 3.1 document of /api/v1 alone, without a key', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: Record<string, unknown> } }>();
    expect(document.openapi).toMatch(/^3\.1\./);
    const paths = Object.keys(document.paths).sort();
    expect(paths).toEqual(['/api/v1/flights', '/api/v1/flights/{id}', '/api/v1/leaked-keys', '/api/v1/whoami']);
    expect(Object.keys(document.paths['/api/v1/flights']!)).toEqual(['get']);
    const parameters = (document.paths['/api/v1/flights']!.get as { parameters: Array<{ name: string; in: string }> }).parameters;
    expect(parameters.map((p) => p.name).sort()).toEqual(['cursor', 'destination', 'flight_number', 'from', 'limit', 'origin', 'status', 'to']);
    expect(Object.keys(document.components.securitySchemes).length).toBeGreaterThan(0);
  });
});
