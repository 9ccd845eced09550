import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Flight, FlightPage } from '../../src/flights/flight-schemas.ts';
import { textOf, useMcpServer } from '../support/mcp-server.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';
import { rowsOf } from '../support/rows.ts';

const FLIGHTS = 23;

describe('MCP tools over Streamable HTTP', () => {
  const kit = useMcpServer();
  let client: Client;
  let keyId: string;
  let creatorEmail: string;
  let secret: string;

  beforeAll(async () => {
    await kit.seedFlights(kit.demoTenantId, FLIGHTS);
    const created = await kit.key();
    const { api_key, creator } = created;
    secret = created.secret;
    keyId = api_key.id;
    creatorEmail = creator.email;
    client = await kit.connect(secret);
  });

  async function listFlights(args: Record<string, unknown>) {
    const result = await client.callTool({ name: 'list_flights', arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return result as typeof result & { structuredContent: FlightPage };
  }

  it('lists the three tools with titles, descriptions and input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_flight', 'list_flights', 'whoami']);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    const list = tools.find((tool) => tool.name === 'list_flights')!;
    expect(Object.keys(list.inputSchema.properties ?? {}).sort()).toEqual([
      'cursor',
      'destination',
      'flight_number',
      'from',
      'limit',
      'origin',
      'status',
      'to',
    ]);
    const status = (list.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>).status!;
    expect(status.enum).toEqual(['scheduled', 'boarding', 'departed', 'arrived', 'delayed', 'cancelled']);
    expect(status.description).toMatch(/cancelled/);
    expect(list.description).toMatch(/UTC/);
    expect(list.description).toMatch(/next_cursor/);
    const get = tools.find((tool) => tool.name === 'get_flight')!;
    expect(get.inputSchema.required).toEqual(['id']);
  });

  it('whoami describes the key, its tenant, who it acts as, its permissions and its limits', async () => {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      tenant: { id: kit.demoTenantId, slug: 'demo' },
      key: { id: keyId, name: 'MCP test key', expires_at: null },
      acts_as: { type: 'user', email: creatorEmail },
      limits: { rate_limit: null, quota: null },
    });
    expect((result.structuredContent as { permissions: string[] }).permissions).toContain('flights:read');
    expect(textOf(result)).toContain(creatorEmail);
    expect(textOf(result)).toContain('flights:read');
  });

  it('pages through every flight with next_cursor, in departure order, without repeats', async () => {
    const seen: Flight[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { structuredContent: page } = await listFlights({ limit: 10, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data);
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(FLIGHTS);
    expect(new Set(seen.map((flight) => flight.id)).size).toBe(FLIGHTS);
    const departures = seen.map((flight) => flight.scheduled_departure);
    expect(departures).toEqual([...departures].sort());
  });

  it('returns exactly what GET /api/v1/flights returns for the same filters and cursor', async () => {
    const rest = (query: string) =>
      fetch(`${kit.server.url}/api/v1/flights?${query}`, { headers: { 'x-api-key': secret } }).then((r) => r.json());
    const first = await listFlights({ limit: 4, status: 'scheduled' });
    expect(first.structuredContent).toEqual(await rest('limit=4&status=scheduled'));
    const cursor = first.structuredContent.next_cursor!;
    const second = await listFlights({ limit: 4, status: 'scheduled', cursor });
    expect(second.structuredContent).toEqual(
      await rest(`limit=4&status=scheduled&cursor=${encodeURIComponent(cursor)}`),
    );
  });

  it('returns the structured content as JSON text too, for clients that read only text', async () => {
    const page = await listFlights({ limit: 2 });
    expect(page.structuredContent.next_cursor).toBeTruthy();
    const flight = await client.callTool({ name: 'get_flight', arguments: { id: page.structuredContent.data[0]!.id } });
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    for (const result of [page, flight, whoami]) {
      expect(result.content).toHaveLength(1);
      expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    }
  });

  it('applies the REST filters: origin (case-insensitive), status and the departure window', async () => {
    const { structuredContent: all } = await listFlights({ limit: 500 });
    const sample = all.data[5]!;
    const byOrigin = await listFlights({ origin: sample.origin.toLowerCase(), limit: 500 });
    expect(byOrigin.structuredContent.data.length).toBeGreaterThan(0);
    expect(byOrigin.structuredContent.data.every((flight) => flight.origin === sample.origin)).toBe(true);
    expect(byOrigin.structuredContent.data.length).toBe(
      all.data.filter((flight) => flight.origin === sample.origin).length,
    );

    const byStatus = await listFlights({ status: sample.status, limit: 500 });
    expect(byStatus.structuredContent.data.map((flight) => flight.id)).toEqual(
      all.data.filter((flight) => flight.status === sample.status).map((flight) => flight.id),
    );

    const window = await listFlights({
      from: sample.scheduled_departure,
      to: all.data[8]!.scheduled_departure,
      limit: 500,
    });
    expect(window.structuredContent.data.map((flight) => flight.id)).toEqual(
      all.data
        .filter(
          (flight) =>
            flight.scheduled_departure >= sample.scheduled_departure &&
            flight.scheduled_departure < all.data[8]!.scheduled_departure,
        )
        .map((flight) => flight.id),
    );
  });

  it.each([
    ['origin', { origin: 'XX1' }],
    ['destination', { destination: 'LONDON' }],
    ['status', { status: 'flying' }],
    ['limit', { limit: 0 }],
    ['limit', { limit: 501 }],
    ['from', { from: 'yesterday' }],
    ['flight_number', { flight_number: 'not a flight' }],
  ])('rejects an invalid %s filter with a tool error naming it (%j)', async (field, args) => {
    const result = await client.callTool({ name: 'list_flights', arguments: args });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain(field);
  });

  it('rejects a cursor issued for other filters', async () => {
    const { structuredContent: page } = await listFlights({ limit: 2 });
    const result = await client.callTool({
      name: 'list_flights',
      arguments: { limit: 2, cursor: page.next_cursor, status: 'cancelled' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^invalid_request: /);
  });

  it('get_flight returns one flight with the same fields as list_flights', async () => {
    const { structuredContent: page } = await listFlights({ limit: 3 });
    const wanted = page.data[2]!;
    const result = await client.callTool({ name: 'get_flight', arguments: { id: wanted.id } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(wanted);
    expect(textOf(result)).toContain(wanted.flight_number);
    expect(textOf(result)).toContain(wanted.scheduled_departure);
  });

  it('get_flight reports an unknown or malformed id as not found', async () => {
    const missing = await client.callTool({ name: 'get_flight', arguments: { id: randomUUID() } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^not_found: /);
    const malformed = await client.callTool({ name: 'get_flight', arguments: { id: 'DA1234' } });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toMatch(/^not_found: /);
  });

  it("never shows another tenant's flights: its ids are not found and it lists none of them", async () => {
    const other = await kit.services.accounts.tenants.create(SYSTEM_ACTOR, { name: 'Other Air', slug: 'other-air' });
    await kit.seedFlights(other.id, 5, 7);
    const theirs = await rowsOf(kit.services).flights.list(other.id, {}, 10);
    expect(theirs).toHaveLength(5);

    for (const flight of theirs) {
      const result = await client.callTool({ name: 'get_flight', arguments: { id: flight.id } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^not_found: /);
    }
    const { structuredContent: mine } = await listFlights({ limit: 500 });
    expect(mine.data).toHaveLength(FLIGHTS);
    const theirIds = new Set(theirs.map((flight) => flight.id));
    expect(mine.data.some((flight) => theirIds.has(flight.id))).toBe(false);

    // The same tools with the other tenant's own key do see them.
    const otherAdmin = await kit.user(['system_administrator'], other.id);
    const { secret } = await kit.key(otherAdmin);
    const otherClient = await kit.connect(secret);
    const result = await otherClient.callTool({ name: 'get_flight', arguments: { id: theirs[0]!.id } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as Flight).id).toBe(theirs[0]!.id);
  });
});
