import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress } from '../support/instances.ts';
import { unknownKey } from '../support/keys.ts';
import { callerTraceparent, SERVER, startTracedServer, traceOf, type TracedServer } from './trace-kit.ts';

let traced: TracedServer;
beforeAll(async () => {
  traced = await startTracedServer();
}, 120_000);
afterAll(() => traced?.stop());

function get(path: string, headers: Record<string, string>) {
  return fetch(`${traced.server.url}${path}`, { headers: { 'x-forwarded-for': clientAddress(), ...headers } });
}

describe('a traced flights request', () => {
  it('continues the caller trace: server span, key check, SQL beneath it', async () => {
    const caller = callerTraceparent();
    const response = await get('/api/v1/flights?limit=5', {
      'x-api-key': traced.key.secret,
      traceparent: caller.header,
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();

    const spans = await traceOf(traced.receiver, caller.traceId);
    const server = spans.find((span) => span.kind === SERVER)!;
    expect(server.name).toBe('GET /api/v1/flights');
    expect(server.parentSpanId).toBe(caller.parentId);
    expect(server.service).toBe('airkey');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/flights',
      'http.response.status_code': 200,
      'airkey.key_check.outcome': 'accepted',
      'airkey.key.id': traced.key.id,
      'airkey.tenant.id': traced.tenantId,
    });
    expect(server.attributes['error.type']).toBeUndefined();

    const keyCheck = spans.find((span) => span.name === 'airkey.key_check')!;
    expect(keyCheck.parentSpanId).toBe(server.spanId);
    const keySql = spans.filter((span) => span.parentSpanId === keyCheck.spanId && span.name.startsWith('pg.query'));
    expect(keySql.length).toBeGreaterThan(0);
    expect(keySql[0]!.attributes['db.system.name']).toBe('postgresql');
    // The flights themselves are read beneath the server span, in the same trace.
    const flightSql = spans.filter((span) => span.parentSpanId === server.spanId && span.name.startsWith('pg.query'));
    expect(flightSql.length).toBeGreaterThan(0);
  });

  it('answers a cached key without a key-check span', async () => {
    const caller = callerTraceparent();
    const response = await get('/api/v1/whoami', { 'x-api-key': traced.key.secret, traceparent: caller.header });
    expect(response.status).toBe(200);
    const spans = await traceOf(traced.receiver, caller.traceId);
    expect(spans.find((span) => span.kind === SERVER)!.attributes['airkey.key_check.outcome']).toBe('accepted');
    expect(spans.some((span) => span.name === 'airkey.key_check')).toBe(false);
  });

  it('marks a refused key with its outcome, status code and error type', async () => {
    const caller = callerTraceparent();
    const response = await get('/api/v1/flights', { 'x-api-key': unknownKey(), traceparent: caller.header });
    expect(response.status).toBe(401);
    const server = (await traceOf(traced.receiver, caller.traceId)).find((span) => span.kind === SERVER)!;
    expect(server.attributes).toMatchObject({
      'http.response.status_code': 401,
      'airkey.key_check.outcome': 'api_key_invalid',
      'error.type': 'api_key_invalid',
    });
    expect(server.attributes['airkey.key.id']).toBeUndefined();
  });

  it('traces an MCP tool call with the key check outcome', async () => {
    const caller = callerTraceparent();
    const response = await fetch(`${traced.server.url}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': traced.key.secret,
        'x-forwarded-for': clientAddress(),
        traceparent: caller.header,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(traced.key.id);
    const server = (await traceOf(traced.receiver, caller.traceId)).find((span) => span.kind === SERVER)!;
    expect(server.name).toBe('POST /mcp');
    expect(server.attributes).toMatchObject({
      'http.route': '/mcp',
      'http.response.status_code': 200,
      'airkey.key_check.outcome': 'accepted',
      'airkey.key.id': traced.key.id,
    });
  });

  it('writes the trace and span ids on log lines written while a span is active', async () => {
    const caller = callerTraceparent();
    const response = await get('/api/v1/whoami', { 'x-api-key': traced.key.secret, traceparent: caller.header });
    expect(response.status).toBe(200);
    const spans = await traceOf(traced.receiver, caller.traceId);
    const line = traced.server
      .output()
      .split('\n')
      .find((text) => text.includes(caller.traceId));
    expect(line, 'a log line with the trace id').toBeDefined();
    const fields = JSON.parse(line!) as { msg: string; trace_id: string; span_id: string };
    expect(fields.msg).toBe('request');
    // The span active when the response was written: the request's own.
    expect(fields.span_id).toBe(spans.find((span) => span.kind === SERVER)!.spanId);
  });
});
