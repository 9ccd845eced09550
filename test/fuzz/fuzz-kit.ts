import fc from 'fast-check';
import { expect } from 'vitest';
import { anyNumber, anyString, matching } from '../support/use.ts';

/** Generated requests per run: ~1,500 in `npm test`, `FUZZ_RUNS=10000` (or more) for a soak run. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
/** This property's share of the run, at least a handful. */
export const runs = (fraction: number) => Math.max(5, Math.round(FUZZ_RUNS * fraction));

export type Seen = { status: number; headers: Record<string, string | string[] | number | undefined>; body: string };

/** What every fuzzed request counted, by status, and the JSON-RPC errors the MCP SDK wrote. */
export const tally = {
  requests: 0,
  refusedByClient: 0,
  byStatus: new Map<number, number>(),
  jsonRpcErrors: new Map<number, number>(),
};

const STACK_OR_SQL = [
  /\n\s+at\s|\.ts:\d+|node_modules/,
  /\b(select|insert|update|delete)\b.+\b(from|into|set|where)\b/i,
];

/**
 * The contract every response keeps (docs/api.md (errors)): never a 5xx; every 4xx is problem details whose
 * status matches the response's; no stack or SQL. `jsonRpc`: an MCP request, where the SDK's
 * transport answers protocol errors as JSON-RPC error objects (the MCP specification requires
 * them), which are allowed and counted. `head`: a HEAD request, answered without a body.
 */
export function expectContract(
  response: Seen,
  context: string,
  options: { jsonRpc?: boolean; head?: boolean } = {},
): void {
  tally.requests += 1;
  tally.byStatus.set(response.status, (tally.byStatus.get(response.status) ?? 0) + 1);
  const where = `${context} -> ${response.status} ${response.body.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  for (const pattern of STACK_OR_SQL) expect(response.body, where).not.toMatch(pattern);
  if (response.status < 400) return;
  const type = String(response.headers['content-type'] ?? '');
  if (options.jsonRpc && type.startsWith('application/json')) {
    const body = JSON.parse(response.body) as { jsonrpc?: string; error?: { code?: unknown; message?: unknown } };
    expect(body, where).toMatchObject({
      jsonrpc: '2.0',
      error: { code: anyNumber(), message: anyString() },
    });
    tally.jsonRpcErrors.set(response.status, (tally.jsonRpcErrors.get(response.status) ?? 0) + 1);
    return;
  }
  expect(type, where).toMatch(/^application\/problem\+json/);
  // A response to HEAD has the headers of the GET but no body.
  if (options.head) return expect(response.body, where).toBe('');
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body, where).toMatchObject({
    type: matching(/^https:\/\/airkey\.dev\/problems\/[a-z_]+$/),
    title: anyString(),
    status: response.status,
    detail: anyString(),
    code: matching(/^[a-z_]+$/),
  });
}

/** Strings a client might send by mistake or on purpose. */
export const nasty: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 90, maxLength: 700 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%00',
    '%zz',
    '%E0%A4%A',
    '\u0000',
    '\uFFFF',
    '\uD800',
    '🛫',
    '../../etc/passwd',
    "' OR 1=1--",
    '{{7*7}}',
    '<script>',
    '__proto__',
    'constructor',
    'null',
    'undefined',
    'NaN',
    '-0',
    '1e309',
    'true',
    '[]',
    '{}',
  ),
  fc.integer().map(String),
  fc.double().map(String),
);

/** Dates and near-dates: valid, impossible, out of range, odd offsets and precisions. */
export const dateish: fc.Arbitrary<string> = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc
    .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
    .map((date) => date.toISOString().slice(0, 10)),
  fc
    .tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom(
    '2026-02-30',
    '2026-13-01',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:00',
    '+275760-09-13',
    '2026-11-22T10:00:00+25:00',
    '0000-00-00',
    '2026-11-22T10:00:00.1234567890Z',
    '2026-11-22T10:00:00.123456789+05:30',
    '2026-11-22 10:00:00Z',
    '20261122',
    'today',
    '1e12',
  ),
  nasty,
);

/** Percent-encodes anything, lone surrogates included (encodeURIComponent throws on those). */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')]
      .map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`)
      .join('');
  }
}

/** A query string: each value percent-encoded, or (sometimes) raw bytes the router must survive. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nasty.map(encode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%E0%A4%A', '%zz', '%00', '+', '%2B', '&', '=', '==', '%26', '#frag', ';'),
  },
);

export function summary(): string {
  const statuses = [...tally.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}:${count}`);
  const jsonRpc = [...tally.jsonRpcErrors.entries()].map(([status, count]) => `${status}:${count}`);
  return `${tally.requests} fuzzed requests answered (${tally.refusedByClient} more generated but refused by inject before sending); statuses ${statuses.join(' ')}; MCP JSON-RPC errors ${jsonRpc.join(' ') || 'none'}`;
}
