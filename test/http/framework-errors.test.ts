import { beforeAll, describe, expect, it } from 'vitest';
import { overflowIsUri } from '../../src/http/framework-errors.ts';
import { mcpRoutes } from '../../src/mcp/mcp-routes.ts';
import { expectProblem } from '../support/problems.ts';
import { getRequest, listen, rawRequest, type RawResponse } from '../support/raw-http.ts';
import { anyString, useHarness } from '../support/use.ts';

/** A raw socket response that is a problem (docs/api.md (errors)) and repeats nothing of what was sent. */
function expectRawProblem(response: RawResponse, status: number, code: string, sent: string[]) {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json(; charset=utf-8)?$/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toMatchObject({
    type: `https://airkey.dev/problems/${code}`,
    title: anyString(),
    status,
    detail: anyString(),
    code,
  });
  for (const fragment of sent) expect(response.body).not.toContain(fragment);
  return body;
}

/** docs/api.md (errors), last paragraph: errors raised before any route runs are problem details too. */
describe('errors before any route runs', () => {
  const h = useHarness({ app: { plugins: [mcpRoutes] } });
  let port: number;
  beforeAll(async () => {
    port = await listen(h.app);
  });

  describe('through a socket (what inject cannot send)', () => {
    it('answers a request line with raw non-ASCII bytes with 400 invalid_request', async () => {
      const target = Buffer.concat([
        Buffer.from('/api/v1/flights/'),
        Buffer.from([0xe9, 0xff, 0x80]),
        Buffer.from('zz-garbage'),
      ]);
      const body = expectRawProblem(await rawRequest(port, getRequest(target)), 400, 'invalid_request', [
        'zz-garbage',
        '/api/v1',
      ]);
      expect(body.errors).toEqual([{ path: 'request', message: anyString() }]);
    });

    it('answers a NUL in a header value with 400 invalid_request', async () => {
      const response = await rawRequest(
        port,
        getRequest('/api/v1/whoami', { 'X-Api-Key': 'ask_secret-looking\0zz-tail' }),
      );
      expectRawProblem(response, 400, 'invalid_request', ['secret-looking', 'zz-tail']);
    });

    it('answers an unknown method token with 400 invalid_request', async () => {
      const response = await rawRequest(port, 'BR@W /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      expectRawProblem(response, 400, 'invalid_request', ['BR@W', 'healthz']);
    });

    it('answers a URI longer than the parser allows with 414 uri_too_long', async () => {
      const marker = 'q'.repeat(20_000);
      const response = await rawRequest(port, getRequest(`/api/v1/flights?origin=${marker}`));
      expectRawProblem(response, 414, 'uri_too_long', ['qqqq', '/api/v1']);
    });

    it('answers headers larger than the parser allows with 431', async () => {
      const response = await rawRequest(port, getRequest('/api/v1/whoami', { 'X-Padding': 'p'.repeat(20_000) }));
      expectRawProblem(response, 431, 'request_header_fields_too_large', ['pppp', 'X-Padding']);
    });

    it('answers a path parameter over the router limit with 414 uri_too_long, without echoing the path', async () => {
      const id = 'i'.repeat(150);
      expectRawProblem(await rawRequest(port, getRequest(`/api/v1/flights/${id}`)), 414, 'uri_too_long', [
        'iiii',
        '/api/v1',
      ]);
      const patch = `PATCH /backoffice/api/api-keys/${id} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
      expectRawProblem(await rawRequest(port, patch), 414, 'uri_too_long', ['iiii', 'backoffice']);
    });

    it('answers a path with invalid percent-encoding with 400 invalid_request naming the path', async () => {
      const body = expectRawProblem(
        await rawRequest(port, getRequest('/api/v1/flights/%E0%A4%A')),
        400,
        'invalid_request',
        ['%E0', '/api/v1'],
      );
      expect(body.errors).toEqual([{ path: 'path', message: anyString() }]);
      // Logged through the request's own logger (request-logger.ts): the request's id is on the line.
      const rejected = h.logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request rejected by the router' && line.code === 'FST_ERR_BAD_URL');
      expect(rejected).toEqual([
        expect.objectContaining({ level: 30, reqId: expect.stringMatching(/^req-\d+$/) as string }),
      ]);
    });

    it('answers a request without Host with 400 invalid_request instead of an empty 400', async () => {
      for (const version of ['1.1', '1.0']) {
        const body = expectRawProblem(
          await rawRequest(port, `GET /healthz HTTP/${version}\r\nConnection: close\r\n\r\n`),
          400,
          'invalid_request',
          ['healthz'],
        );
        expect(body.errors).toEqual([{ path: 'host', message: anyString() }]);
      }
    });

    it('answers a malformed Host with 400 invalid_request, on /mcp too (whose SDK transport would send an empty 400)', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
      for (const host of ['zz host', 'zz.example:99999', 'zz%41.example', 'zz\xe9vil']) {
        const request = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nX-Api-Key: ${secret}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
        const problem = expectRawProblem(
          await rawRequest(port, Buffer.from(request, 'latin1')),
          400,
          'invalid_request',
          ['zz', secret],
        );
        expect(problem.errors).toEqual([{ path: 'host', message: anyString() }]);
      }
      const good = `POST /mcp HTTP/1.1\r\nHost: My_Service:3000\r\nX-Api-Key: ${secret}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      expect((await rawRequest(port, good)).status).toBe(200);
    });

    it('still answers normally after all of that', async () => {
      const response = await rawRequest(port, getRequest('/healthz'));
      expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: '{"status":"ok"}' });
    });
  });

  describe('through inject', () => {
    it('answers a body over the limit with 413 payload_too_large', async () => {
      const admin = await h.signedIn();
      const name = 'n'.repeat(70 * 1024);
      const response = await admin.request('POST', '/backoffice/api/api-keys', { name });
      expectProblem(response, 413, 'payload_too_large');
      expect(response.body).not.toContain('nnnn');
    });

    it('answers a body in an unsupported media type with 415 unsupported_media_type', async () => {
      const admin = await h.signedIn();
      const response = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/api-keys',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'text/x-garbage' },
        payload: 'name=zz-garbage',
      });
      expectProblem(response, 415, 'unsupported_media_type');
      expect(response.body).not.toMatch(/zz-garbage|text\/x-garbage/);
    });

    it('answers a method /mcp does not serve with 405 and Allow: POST', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      const response = await h.app.inject({ method: 'GET', url: '/mcp', headers: { 'x-api-key': secret } });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('POST');
    });

    it('answers an unknown route with 404 not_found, without echoing the path', async () => {
      const response = await h.app.inject({ method: 'GET', url: '/zz-nowhere/<script>alert(1)</script>' });
      expectProblem(response, 404, 'not_found');
      expect(response.body).not.toMatch(/zz-nowhere|script/);
    });

    it('answers malformed JSON with 400 invalid_request, without echoing the body', async () => {
      const admin = await h.signedIn();
      const response = await h.app.inject({
        method: 'POST',
        url: '/backoffice/api/api-keys',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
        payload: '{"name": zz-garbage',
      });
      expect(expectProblem(response, 400, 'invalid_request').errors).toEqual([{ path: 'body', message: anyString() }]);
      expect(response.body).not.toContain('zz-garbage');
    });

    it('answers an over-long path parameter with 414 through inject too', async () => {
      const response = await h.app.inject({ method: 'GET', url: `/api/v1/flights/${'i'.repeat(150)}` });
      expectProblem(response, 414, 'uri_too_long');
      expect(response.body).not.toContain('iiii');
    });
  });

  describe('telling a long URI from long headers when the parser overflows', () => {
    it('reads the chunk the parser was on: a request line still open or over 8 KiB is the URI, a header line is not', () => {
      expect(overflowIsUri(Buffer.from(`GET /x?q=${'a'.repeat(20_000)}`))).toBe(true);
      expect(overflowIsUri(Buffer.from(`GET /x?q=${'a'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n`))).toBe(true);
      expect(overflowIsUri(Buffer.from(`${'a'.repeat(500)} HTTP/1.1\r\nHost: x\r\n`))).toBe(true);
      expect(overflowIsUri(Buffer.from(`GET /x HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}`))).toBe(false);
      expect(overflowIsUri(Buffer.from(`${'b'.repeat(20_000)}\r\nX-More: c\r\n`))).toBe(false);
      expect(overflowIsUri(undefined)).toBe(false);
    });
  });
});
