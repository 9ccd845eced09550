import type { Db } from '../db/handle.ts';
import { requireSystem, type Actor } from '../shared/actor.ts';
import { requireKeyPermission } from '../shared/principal.ts';
import type { Principal } from '../shared/principal.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import type { FlightPageCache } from './flight-page-cache.ts';
import type { FlightRepository, FlightRow } from './flight-repository.ts';
import type { Flight, FlightPage, FlightQuery } from './flight-schemas.ts';

type Position = { d: number; i: string };
const isPosition = (value: unknown): value is Position =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as Position).d) &&
  typeof (value as Position).i === 'string';

export type FlightServiceOptions = {
  /** A key the key check accepted lacked the permission: its usage counts the request as rejected. */
  onDenied?: (principal: Principal) => void;
  /** Pages as last read (PGlite only: see FlightPageCache). */
  pages?: FlightPageCache | undefined;
};

/** Read access to a tenant's flights, for REST and MCP alike. */
export class FlightService {
  private readonly flights: FlightRepository;
  private readonly cursors: CursorCodec;
  private readonly options: FlightServiceOptions;
  constructor(flights: FlightRepository, cursors: CursorCodec, options: FlightServiceOptions = {}) {
    this.flights = flights;
    this.cursors = cursors;
    this.options = options;
  }

  /** The page is shared with other callers when it comes from the page cache: never change it. */
  async list(principal: Principal, query: FlightQuery): Promise<FlightPage> {
    this.requireRead(principal);
    const tenantId = principal.tenant.id;
    // A cursor is bound to the tenant and the filters it was issued for.
    const scope = JSON.stringify([
      tenantId,
      query.from,
      query.to,
      query.origin,
      query.destination,
      query.status,
      query.flight_number,
    ]);
    const pages = this.options.pages;
    if (!pages) return this.read(tenantId, query, scope);
    // Only pages read with a valid cursor are kept, so a cursor found here is a valid one.
    const asked = `${scope}\u0000${query.limit}\u0000${query.cursor ?? ''}`;
    const cached = pages.get(tenantId, asked);
    if (cached) return cached;
    const version = pages.version(tenantId);
    const page = await this.read(tenantId, query, scope);
    pages.fill(tenantId, asked, page, version);
    return page;
  }

  private async read(tenantId: string, query: FlightQuery, scope: string): Promise<FlightPage> {
    const after = query.cursor ? this.cursors.decode(query.cursor, scope, isPosition) : undefined;
    const rows = await this.flights.list(
      tenantId,
      {
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        origin: query.origin?.toUpperCase(),
        destination: query.destination?.toUpperCase(),
        status: query.status,
        flightNumber: query.flight_number?.toUpperCase(),
        after: after ? { departure: new Date(after.d), id: after.i } : undefined,
      },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      data: page.map(toFlight),
      next_cursor:
        rows.length > query.limit && last
          ? this.cursors.encode({ d: Date.parse(last.scheduledDeparture), i: last.id } satisfies Position, scope)
          : null,
    };
  }

  async get(principal: Principal, id: string): Promise<Flight> {
    this.requireRead(principal);
    const row = isUuid(id) ? await this.flights.findById(principal.tenant.id, id) : undefined;
    if (!row) throw new NotFoundError('flight');
    return toFlight(row);
  }

  /**
   * Adds flights (sample data: `airkey flights seed`, the first start), inside `tx` when given; a
   * tenant's cached pages go. Only the system adds flights: no key or user may.
   */
  async seed(actor: Actor, rows: Parameters<FlightRepository['insertMany']>[0], tx?: Db): Promise<number> {
    requireSystem(actor, 'add flights');
    return this.flights.insertMany(rows, tx);
  }

  private requireRead(principal: Principal): void {
    try {
      requireKeyPermission(principal, 'flights:read');
    } catch (error) {
      this.options.onDenied?.(principal);
      throw error;
    }
  }
}

function toFlight(row: FlightRow): Flight {
  return {
    id: row.id,
    flight_number: row.flightNumber,
    origin: row.origin,
    destination: row.destination,
    scheduled_departure: row.scheduledDeparture,
    scheduled_arrival: row.scheduledArrival,
    status: row.status,
    aircraft: { registration: row.aircraftRegistration, type: row.aircraftType },
  };
}
