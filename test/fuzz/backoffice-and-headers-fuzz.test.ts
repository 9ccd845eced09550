import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateish, encode, expectContract, nasty, runs } from './fuzz-kit.ts';
import { useFuzzTarget } from './fuzz-target.ts';
import { scrubUrl } from '../../src/shared/redaction.ts';

/**
 * Generated requests (back office and headers). Each must keep the error contract (no 5xx, problem details), and
 * nothing the contract refuses is accepted.
 */
describe('HTTP fuzzing (fast-check): back office and headers', () => {
  const fuzz = useFuzzTarget();

  it('back office: any body, id or content type keeps the contract; nothing malformed is created or changed', async () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ name: nasty, expires_at: fc.option(dateish) }, { requiredKeys: [] }),
      fc.dictionary(nasty, fc.jsonValue(), { maxKeys: 3 }),
    );
    const route = fc.constantFrom(
      { method: 'POST', url: '/backoffice/api/api-keys' },
      { method: 'PATCH', url: '/backoffice/api/api-keys/:id' },
      { method: 'DELETE', url: '/backoffice/api/api-keys/:id' },
      { method: 'POST', url: '/backoffice/api/users' },
      { method: 'PATCH', url: '/backoffice/api/users/:id' },
      { method: 'POST', url: '/backoffice/api/session' },
      { method: 'GET', url: '/backoffice/api/api-keys?limit=:id' },
      { method: 'GET', url: '/backoffice/api/audit-events?cursor=:id' },
    ) as fc.Arbitrary<{ method: 'POST' | 'PATCH' | 'DELETE' | 'GET'; url: string }>;
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'multipart/form-data',
      '',
    );
    const raw = fc.oneof(
      body.map((value) => JSON.stringify(value) ?? ''),
      nasty,
      fc.constantFrom('{"name":', '{"__proto__":{"x":1},"name":"a"}', '{"constructor":{"prototype":{}}}', '[', 'null'),
    );
    await fc.assert(
      fc.asyncProperty(
        route,
        fc.oneof(nasty.map(encode), fc.uuid()),
        raw,
        contentType,
        async ({ method, url }, id, payload, type) => {
          const target = url.replace(':id', id);
          const headers: Record<string, string> = { cookie: fuzz.admin.cookie, 'x-csrf-token': fuzz.admin.csrf };
          if (type) headers['content-type'] = type;
          const response = await fuzz.send({ method, url: target, headers, ...(method === 'GET' ? {} : { payload }) });
          if (!response) return;
          const context = `${method} ${target} [${type}] ${payload.slice(0, 200)}`;
          expectContract(response, context);
          if (response.status === 201 && url === '/backoffice/api/api-keys') {
            const sent = JSON.parse(payload) as { name?: unknown };
            expect(typeof sent.name, context).toBe('string');
            expect(String(sent.name).trim().length, context).toBeGreaterThan(0);
          }
          if (url === '/backoffice/api/session') expect(response.status, context).not.toBe(200);
          if (url.includes('/:id') && method !== 'POST')
            expect(response.status, `${context}: a made-up id was accepted`).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: runs(0.12) },
    );
  });

  it('headers: odd, repeated and oversized headers on any route keep the contract', async () => {
    const name = fc.oneof(
      fc.constantFrom(
        'accept',
        'content-type',
        'cookie',
        'origin',
        'x-csrf-token',
        'x-forwarded-for',
        'authorization',
        'x-api-key',
        'content-length',
        'transfer-encoding',
        'accept-version',
        'host',
        'range',
      ),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    );
    const value = fc.oneof(
      nasty,
      fc.string({ minLength: 1000, maxLength: 8000 }),
      fc.array(nasty, { minLength: 2, maxLength: 4 }),
    );
    const path = fc.constantFrom(
      '/api/v1/whoami',
      '/api/v1/flights',
      '/backoffice/api/session',
      '/backoffice/api/api-keys',
      '/healthz',
      '/readyz',
      '/api/v1/openapi.json',
      '/nowhere',
      '/mcp',
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.dictionary(name, value, { maxKeys: 5 }),
        fc.constantFrom('GET', 'POST', 'DELETE', 'HEAD', 'OPTIONS', 'PUT'),
        async (url, headers, method) => {
          // Half the time with the key, so /mcp and the API get past the key check to the rest.
          const all = { ...(fuzz.requestsSent() % 2 ? { 'x-api-key': fuzz.secret } : {}), ...headers } as Record<
            string,
            string
          >;
          const response = await fuzz.send({ method, url, headers: all });
          if (!response) return;
          expectContract(response, `${method} ${url} ${scrubUrl(JSON.stringify(all)).slice(0, 300)}`, {
            head: method === 'HEAD',
            jsonRpc: url === '/mcp',
          });
        },
      ),
      { numRuns: runs(0.15) },
    );
  });
});
