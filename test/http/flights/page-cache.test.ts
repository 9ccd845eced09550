import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FlightRepository } from '../../../src/flights/flight-repository.ts';
import { ENGINES } from '../../support/databases.ts';
import { useHarness } from '../../support/use.ts';
import { BASE, HOUR } from './flights-fixture.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';

type Page = { data: Array<{ id: string; flight_number: string }>; next_cursor: string | null };

const flight = (tenantId: string, number: string, departure: number) => ({
  tenantId,
  flightNumber: number,
  origin: 'DUB',
  destination: 'JFK',
  scheduledDeparture: new Date(departure),
  scheduledArrival: new Date(departure + 8 * HOUR),
  status: 'scheduled' as const,
  aircraftRegistration: 'EI-FNA',
  aircraftType: 'A21N',
});

// PGlite pages are kept in memory until the tenant's next flight write (this process is the only
// writer); PostgreSQL pages never are (other instances write). Either way a write shows at once.
describe.each(ENGINES)('flight pages and flight writes (%s)', (engine) => {
  const h = useHarness({ engine });
  const keys = new Map<string, string>();
  const list = async (tenantId: string, query = '') => {
    const response = await h.api(keys.get(tenantId), `/api/v1/flights${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };

  beforeAll(async () => {
    for (let t = 0; t < 2; t++) {
      const admin = await h.signedIn();
      keys.set(admin.tenantId, (await h.createKey(admin)).secret);
      await h.services.flights.seed(
        SYSTEM_ACTOR,
        Array.from({ length: 5 }, (_, i) => flight(admin.tenantId, `T${t}0${i}`, BASE + i * HOUR)),
      );
    }
  });

  it('shows a write to the tenant’s flights on the very next read of a page read before', async () => {
    const [tenantId] = [...keys.keys()];
    expect((await list(tenantId!)).data.map((f) => f.flight_number)).toEqual(['T000', 'T001', 'T002', 'T003', 'T004']);
    await h.services.flights.seed(SYSTEM_ACTOR, [flight(tenantId!, 'T0EARLY', BASE - HOUR)]);
    const after = await list(tenantId!);
    expect(after.data.map((f) => f.flight_number)).toEqual(['T0EARLY', 'T000', 'T001', 'T002', 'T003', 'T004']);
  });

  it('never answers one tenant with another tenant’s page of the same query', async () => {
    const [first, second] = [...keys.keys()];
    const pages = [await list(first!, '?limit=2'), await list(second!, '?limit=2'), await list(first!, '?limit=2')];
    expect(pages.map((page) => page.data.map((f) => f.flight_number))).toEqual([
      ['T0EARLY', 'T000'],
      ['T100', 'T101'],
      ['T0EARLY', 'T000'],
    ]);
  });

  it(
    engine === 'pglite' ? 'reads a page once and answers it again from memory' : 'reads every page from the database',
    async () => {
      const [tenantId] = [...keys.keys()];
      const reads = vi.spyOn(FlightRepository.prototype, 'list');
      try {
        const first = await list(tenantId!, '?limit=3');
        const cursor = encodeURIComponent(first.next_cursor!);
        const pages = [
          first,
          await list(tenantId!, '?limit=3'),
          await list(tenantId!, `?limit=3&cursor=${cursor}`),
          await list(tenantId!, `?limit=3&cursor=${cursor}`),
        ];
        expect(pages[1]).toEqual(pages[0]);
        expect(pages[3]).toEqual(pages[2]);
        expect(pages[2]!.data.map((f) => f.flight_number)).toEqual(['T002', 'T003', 'T004']);
        expect(reads).toHaveBeenCalledTimes(engine === 'pglite' ? 2 : 4);
      } finally {
        reads.mockRestore();
      }
    },
  );
});
