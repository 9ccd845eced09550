import { afterAll, describe, expect, it } from 'vitest';
import { clientAddress } from '../support/instances.ts';
import { callerTraceparent, SERVER, startTracedServer, traceOf, type TracedServer } from './trace-kit.ts';

const CLIENT = 3;
const servers: TracedServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.stop())));

/** The shape of a flights trace: each span by name under its parent's name, with its database fields. */
async function flightsTraceShape(engine: 'postgres' | 'embedded') {
  const traced = await startTracedServer({}, engine);
  servers.push(traced);
  const caller = callerTraceparent();
  const response = await fetch(`${traced.server.url}/api/v1/flights?limit=5`, {
    headers: { 'x-api-key': traced.key.secret, 'x-forwarded-for': clientAddress(), traceparent: caller.header },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  const spans = await traceOf(traced.receiver, caller.traceId);
  const nameOf = (spanId: string) => spans.find((span) => span.spanId === spanId)?.name ?? 'caller';
  // The pool's connection spans exist only where there is a pool (PostgreSQL).
  const queries = spans.filter((span) => span.kind === CLIENT && span.name.startsWith('pg.query'));
  for (const query of queries) {
    expect(query.attributes['db.system.name']).toBe('postgresql');
    // Placeholders only: the statement never carries the digest or any other parameter.
    expect(String(query.attributes['db.query.text'])).not.toMatch(/'[0-9a-f]{64}'/);
  }
  return {
    server: spans.filter((span) => span.kind === SERVER).map((span) => `${span.name} <- ${nameOf(span.parentSpanId)}`),
    keyCheck: spans.filter((span) => span.name === 'airkey.key_check').map((span) => nameOf(span.parentSpanId)),
    // PostgreSQL names a query by its prepared statement, the embedded engine by its operation.
    queries: [...new Set(queries.map((span) => `pg.query <- ${nameOf(span.parentSpanId)}`))].sort(),
    queryNames: queries.map((span) => span.name),
    queryTexts: queries.map((span) => String(span.attributes['db.query.text'])),
  };
}

describe('a traced flights request, in both database modes', () => {
  it('has the same spans whether the database is PostgreSQL or embedded', async () => {
    const postgres = await flightsTraceShape('postgres');
    const embedded = await flightsTraceShape('embedded');
    expect(embedded.server).toEqual(['GET /api/v1/flights <- caller']);
    expect(embedded.keyCheck).toEqual(['GET /api/v1/flights']);
    expect(embedded.queries).toEqual(['pg.query <- GET /api/v1/flights', 'pg.query <- airkey.key_check']);
    expect(embedded.queryNames.every((name) => name === 'pg.query:SELECT postgres')).toBe(true);
    expect(embedded.queryTexts.some((text) => text.includes('$1'))).toBe(true);
    expect(embedded.server).toEqual(postgres.server);
    expect(embedded.keyCheck).toEqual(postgres.keyCheck);
    expect(embedded.queries).toEqual(postgres.queries);
  });
});
