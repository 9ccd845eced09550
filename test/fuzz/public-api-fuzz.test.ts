import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLIGHT_STATUSES } from '../../src/flights/flight-schemas.ts';
import { dateish, encode, expectContract, nasty, queryValue, runs } from './fuzz-kit.ts';
import { useFuzzTarget } from './fuzz-target.ts';

/**
 * Generated requests (public API: flights, cursors, ids, keys). Each must keep the error contract (no 5xx, problem details), and
 * nothing the contract refuses is accepted.
 */
describe('HTTP fuzzing (fast-check): public API: flights, cursors, ids, keys', () => {
  const fuzz = useFuzzTarget();

  it('flights list: any query keeps the contract; a malformed limit, status, origin or cursor, or a repeated parameter, is never 200', async () => {
    const known = ['from', 'to', 'origin', 'destination', 'status', 'flight_number', 'limit', 'cursor'];
    const limit = fc.oneof(
      fc.integer({ min: 1, max: 500 }).map(String),
      fc.constantFrom('0', '501', '-1', '1.5', '1e2', '0x10', ' 5', '5 ', '', '+5', '5.0', '٥'),
      nasty,
    );
    const param = fc.oneof(
      fc.tuple(fc.constantFrom(...known), fc.oneof(queryValue, dateish.map(encode))),
      fc.tuple(fc.constant('limit'), limit.map(encode)),
      fc.tuple(fc.constant('status'), fc.oneof(fc.constantFrom(...FLIGHT_STATUSES), nasty).map(encode)),
      fc.tuple(nasty.map(encode), queryValue),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(param, { maxLength: 6 }), async (params) => {
        const query = params.map(([name, value]) => `${name}=${value}`).join('&');
        const url = `/api/v1/flights?${query}`;
        const response = await fuzz.send({ method: 'GET', url, headers: { 'x-api-key': fuzz.secret } });
        if (!response) return;
        expectContract(response, `GET ${url}`);
        if (response.status !== 200) return;
        // Accepted: every known parameter must have been well-formed and given once.
        // What the server saw: a '#' ends the URL, the rest is a fragment no client sends.
        const parsed = new URLSearchParams(query.split('#')[0]);
        for (const name of known) expect(parsed.getAll(name).length, url).toBeLessThanOrEqual(1);
        const at = (name: string) => parsed.get(name);
        if (at('limit') !== null) expect(at('limit'), url).toMatch(/^\d+$/);
        if (at('limit') !== null) expect(Number(at('limit')), url).toBeGreaterThanOrEqual(1);
        if (at('status') !== null) expect(FLIGHT_STATUSES, url).toContain(at('status'));
        for (const name of ['origin', 'destination'])
          if (at(name) !== null) expect(at(name), url).toMatch(/^[A-Za-z]{3}$/);
        for (const name of ['from', 'to']) {
          const value = at(name);
          if (value === null) continue;
          expect(value, url).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/);
          // A real calendar day: the date part survives a round trip through Date.
          expect(new Date(`${value.slice(0, 10)}T00:00:00Z`).toISOString().slice(0, 10), url).toBe(value.slice(0, 10));
        }
        // An empty cursor is the first page (the service treats it as absent); any other made-up one is refused.
        expect(at('cursor') ?? '', `${url}: a made-up cursor was accepted`).toBe('');
      }),
      { numRuns: runs(0.24) },
    );
  });

  it('cursors: a real cursor altered in any way, or used with other filters, is 400 invalid_request', async () => {
    const first = await fuzz.send({
      method: 'GET',
      url: '/api/v1/flights?limit=2',
      headers: { 'x-api-key': fuzz.secret },
    });
    const cursor = (JSON.parse(first!.body) as { next_cursor: string }).next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const alteration = fc.oneof(
      fc
        .tuple(
          fc.nat({ max: cursor.length - 1 }),
          fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'),
        )
        .map(([at, char]) => cursor.slice(0, at) + char + cursor.slice(at + 1)),
      fc.nat({ max: cursor.length - 1 }).map((length) => cursor.slice(0, length)),
      nasty.map((tail) => cursor + tail),
      fc.constant(cursor.split('.').reverse().join('.')),
    );
    await fc.assert(
      fc.asyncProperty(
        alteration,
        fc.constantFrom('limit=2', 'limit=3', 'limit=2&status=scheduled'),
        async (altered, filters) => {
          const url = `/api/v1/flights?${filters}&cursor=${encode(altered)}`;
          const response = await fuzz.send({ method: 'GET', url, headers: { 'x-api-key': fuzz.secret } });
          if (!response) return;
          expectContract(response, `GET ${url}`);
          // Same filters and the very same cursor is the next page; anything else is refused.
          const sameFilters = filters === 'limit=2' || filters === 'limit=3';
          if (altered === cursor && sameFilters) expect(response.status, url).toBe(200);
          else if (altered !== '') expect(response.status, url).toBe(400);
        },
      ),
      { numRuns: runs(0.05) },
    );
  });

  it('flight by id: any id keeps the contract and only the real id is 200', async () => {
    const id = fc.oneof(
      nasty.map(encode),
      fc.uuid(),
      fc.constantFrom('%E0%A4%A', '%', '%2F', '..', '%2e%2e', `${'x'.repeat(101)}`, 'x'.repeat(100)),
    );
    await fc.assert(
      fc.asyncProperty(id, async (value) => {
        const url = `/api/v1/flights/${value}`;
        const response = await fuzz.send({ method: 'GET', url, headers: { 'x-api-key': fuzz.secret } });
        if (!response) return;
        expectContract(response, `GET ${url}`);
        // An empty id is the list itself (trailing slashes are ignored); anything else is one flight.
        if (response.status === 200 && value !== '')
          expect((JSON.parse(response.body) as { id: string }).id, url).toBe(fuzz.flightId);
        expect([200, 400, 404, 414], url).toContain(response.status);
      }),
      { numRuns: runs(0.1) },
    );
    // The oracle is not vacuous: the real id is found.
    expect(
      (
        await fuzz.send({
          method: 'GET',
          url: `/api/v1/flights/${fuzz.flightId}`,
          headers: { 'x-api-key': fuzz.secret },
        })
      )?.status,
    ).toBe(200);
  });

  it('keys: a made-up key, anywhere and any number of times, never gets 200', async () => {
    const key = fc.oneof(
      nasty,
      fc.string({ minLength: 60, maxLength: 80 }).map((s) => `ask_${s}`),
      fc.stringMatching(/^ask_[A-Za-z0-9_-]{64}$/),
    );
    const placement = fc.record({
      header: fc.option(key),
      bearer: fc.option(key),
      query: fc.array(key, { maxLength: 3 }),
      scheme: fc.constantFrom('Bearer', 'bearer', 'Basic', '', 'Bearer  '),
    });
    const path = fc.constantFrom('/api/v1/whoami', '/api/v1/flights', `/api/v1/flights/${crypto.randomUUID()}`);
    await fc.assert(
      fc.asyncProperty(placement, path, async ({ header, bearer, query, scheme }, target) => {
        const headers: Record<string, string> = {};
        if (header !== null) headers['x-api-key'] = header;
        if (bearer !== null) headers.authorization = `${scheme} ${bearer}`;
        const url = target + (query.length ? `?${query.map((k) => `api_key=${encode(k)}`).join('&')}` : '');
        const response = await fuzz.send({ method: 'GET', url, headers });
        if (!response) return;
        expectContract(response, `GET ${url} ${JSON.stringify(headers)}`);
        expect([400, 401, 429], `${url} ${JSON.stringify(headers)}`).toContain(response.status);
      }),
      { numRuns: runs(0.12) },
    );
  });
});
