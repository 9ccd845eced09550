import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Harness } from './harness.ts';
import type { KeyVia } from './keys.ts';
import { anyString } from './use.ts';

export { unknownKey } from './keys.ts';

/**
 * Asserts an RFC 9457 problem response (docs/api.md (errors)) and returns its body: the content type, the five
 * fields, and nothing a client must never see (a stack trace, SQL).
 */
export function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json<{
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    errors?: Array<{ path: string; message: string }>;
  }>();
  expect(body).toMatchObject({ status, code, type: anyString(), title: anyString(), detail: anyString() });
  expect(response.body).not.toMatch(/\n\s+at\s|\.ts:\d+|node_modules/);
  expect(response.body).not.toMatch(/\b(select|insert|update|delete)\b.+\b(from|into|set|where)\b/i);
  return body;
}

/** A public-API request from a chosen client address, so throttling tests do not share a counter. */
export function apiFrom(h: Harness, client: string, key: string | undefined, url: string, via: KeyVia = 'header') {
  return h.apiWith(key, url, { via, client });
}
