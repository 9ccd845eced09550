import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getRequest, rawRequest } from '../support/raw-http.ts';
import { dateish, expectContract, nasty, runs } from './fuzz-kit.ts';
import { useFuzzTarget } from './fuzz-target.ts';
import { scrubUrl } from '../../src/shared/redaction.ts';

/**
 * Generated requests (/mcp and raw bytes). Each must keep the error contract (no 5xx, problem details), and
 * nothing the contract refuses is accepted.
 */
describe('HTTP fuzzing (fast-check): /mcp and raw bytes', () => {
  const fuzz = useFuzzTarget();

  it('/mcp: any JSON-RPC message keeps the contract; protocol errors are JSON-RPC as MCP requires', async () => {
    const method = fc.oneof(
      fc.constantFrom(
        'initialize',
        'tools/list',
        'tools/call',
        'ping',
        'notifications/initialized',
        'resources/list',
        'prompts/get',
      ),
      nasty,
    );
    const args = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          id: fc.oneof(nasty, fc.uuid()),
          limit: fc.oneof(fc.integer(), nasty),
          from: dateish,
          to: dateish,
          origin: nasty,
          status: nasty,
          cursor: nasty,
        },
        { requiredKeys: [] },
      ),
    );
    const params = fc.oneof(
      fc.record({ name: fc.oneof(fc.constantFrom('list_flights', 'get_flight', 'whoami'), nasty), arguments: args }),
      fc.record({
        protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-03-26'), nasty),
        capabilities: fc.jsonValue(),
        clientInfo: fc.jsonValue(),
      }),
      fc.jsonValue(),
    );
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), nasty),
        id: fc.oneof(fc.integer(), nasty, fc.constant(null)),
        method,
        params,
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    );
    const payload = fc.oneof(
      { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
      fc.array(message, { maxLength: 3 }).map((m) => JSON.stringify(m)),
      fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
      nasty,
    );
    const accept = fc.constantFrom(
      'application/json, text/event-stream',
      'application/json',
      'text/event-stream',
      '*/*',
      '',
      'text/html',
    );
    const contentType = fc.constantFrom('application/json', 'application/json', 'text/plain', '');
    // Origin varies too; docs/api.md's 403 origin_rejected is not implemented yet, so only the contract is checked.
    const origin = fc.option(fc.constantFrom('http://evil.example', 'null', 'http://localhost:80'), { freq: 5 });
    await fc.assert(
      fc.asyncProperty(payload, accept, contentType, origin, async (body, acceptValue, type, originValue) => {
        const headers: Record<string, string> = { 'x-api-key': fuzz.secret };
        if (acceptValue) headers.accept = acceptValue;
        if (type) headers['content-type'] = type;
        if (originValue) headers.origin = originValue;
        const response = await fuzz.send({ method: 'POST', url: '/mcp', headers, payload: body });
        if (!response) return;
        const context = `POST /mcp ${scrubUrl(JSON.stringify(headers))} ${body.slice(0, 300)}`;
        expectContract(response, context, { jsonRpc: true });
      }),
      { numRuns: runs(0.13) },
    );
  });

  it('raw bytes through a socket: request lines, header names and values, any bytes, keep the contract', async () => {
    const bytes = fc
      .uint8Array({ minLength: 1, maxLength: 64 })
      .map((array) => Buffer.from(array.filter((byte) => byte !== 0x0a && byte !== 0x0d)));
    const target = fc.constantFrom(
      '/api/v1/flights/',
      '/api/v1/flights?origin=',
      '/backoffice/api/api-keys/',
      '/api/v1/whoami?api_key=',
      '/',
    );
    const where = fc.constantFrom('target', 'header-value', 'header-name', 'method');
    await fc.assert(
      fc.asyncProperty(target, bytes, where, async (path, garbage, place) => {
        let request: Buffer;
        if (place === 'target')
          request = getRequest(Buffer.concat([Buffer.from(path), garbage]), { 'X-Api-Key': fuzz.secret });
        else if (place === 'header-value') request = getRequest(path, { 'X-Api-Key': garbage.toString('latin1') });
        else if (place === 'header-name') request = getRequest(path, { [`X-${garbage.toString('latin1')}`]: 'v' });
        else
          request = Buffer.concat([garbage, Buffer.from(` ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)]);
        const response = await rawRequest(fuzz.port, request);
        expectContract(response, `raw ${place} ${JSON.stringify(request.toString('latin1').slice(0, 200))}`);
      }),
      { numRuns: runs(0.12) },
    );
  });

  it('the server still answers afterwards: health, a valid key, the back office', async () => {
    const health = await rawRequest(fuzz.port, getRequest('/healthz'));
    expect({ status: health.status, body: health.body }).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(
      (await fuzz.send({ method: 'GET', url: '/api/v1/whoami', headers: { 'x-api-key': fuzz.secret } }))?.status,
    ).toBe(200);
    expect((await fuzz.admin.request('GET', '/backoffice/api/api-keys')).statusCode).toBe(200);
  });
});
