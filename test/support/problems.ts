import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Harness, KeyVia } from './harness.ts';

/**
 * Asserts an RFC 9457 problem response (SPEC §6) and returns its body: the content type, the five
 * fields, and nothing a client must never see (a stack trace, SQL).
 */
export function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json<{ type: string; title: string; status: number; detail: string; code: string; errors?: Array<{ path: string; message: string }> }>();
  expect(body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(response.body).not.toMatch(/\n\s+at\s|\.ts:\d+|node_modules/);
  expect(response.body).not.toMatch(/\b(select|insert|update|delete)\b.+\b(from|into|set|where)\b/i);
  return body;
}

/** A public-API request from a chosen client address, so throttling tests do not share a counter. */
export function apiFrom(h: Harness, client: string, key: string | undefined, url: string, via: KeyVia = 'header') {
  const headers: Record<string, string> = {};
  let target = url;
  if (key !== undefined && via === 'header') headers['x-api-key'] = key;
  if (key !== undefined && via === 'bearer') headers.authorization = `Bearer ${key}`;
  if (key !== undefined && via === 'query') target += `${url.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`;
  return h.app.inject({ method: 'GET', url: target, headers, remoteAddress: client });
}

/** A well-formed key that no tenant holds. */
export function unknownKey(fill = 'Z'): string {
  return `ask_${fill.repeat(64)}`.slice(0, 68);
}
