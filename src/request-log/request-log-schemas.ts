import { z } from 'zod';
import { canonicalIpEntry } from '../shared/ip-entries.ts';
import { pageSize } from '../shared/page-size.ts';

/**
 * The request log's contract (docs/request-log.md) as data: what one entry is, how a page is
 * asked for and what it holds. It validates the back office's requests, documents them and types
 * the page in the browser.
 */
/** Stored by position (src/request-log/stored-codes.ts): a new outcome goes at the end. */
export const REQUEST_OUTCOMES = [
  'ok',
  'not_found',
  'invalid_request',
  'permission_denied',
  'rejected',
  'ip_refused',
  'rate_limited',
  'quota_exceeded',
  'error',
] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

export const requestLogEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe('ISO 8601 UTC instant the request arrived'),
  credential: z.enum(['key', 'oauth']).describe('An API key, or an OAuth access token (docs/oauth.md)'),
  key: z
    .object({ id: z.string(), name: z.string(), hint: z.string().nullable() })
    .describe("The key; for an access token its grant's id, its app's name and no hint"),
  method: z.string(),
  path: z.string().describe('The path only, never the query string'),
  route: z.string().describe('The OpenAPI path template, e.g. /api/v1/flights/{id}, or /mcp'),
  status: z.number().int(),
  outcome: z.enum(REQUEST_OUTCOMES),
  address: z.string().nullable().describe('The client address, as allowlists see it'),
  user_agent: z.string().nullable().describe('At most 256 characters'),
  duration_ms: z.number(),
  trace_id: z.string().nullable(),
  mcp: z
    .object({ method: z.string(), tool: z.string().nullable() })
    .nullable()
    .describe('On /mcp: the JSON-RPC method, and the tool of a tools/call'),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A real calendar day (no 30 February rolled into March) from 1970 on, as PostgreSQL takes it. */
function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Sent to the database as the instant it names, in UTC. */
const instant = z
  .string()
  .refine(isInstant, {
    message: 'Use an ISO 8601 date (2026-11-22) or date-time with offset (2026-11-22T06:00:00Z).',
  })
  .transform((value) => new Date(value).toISOString());

/** An address or a CIDR range, canonical; `address <<= range` in the query. */
const addressOrRange = z.string().transform((value, ctx) => {
  const result = canonicalIpEntry(value);
  if (result.ok) return result.entry;
  ctx.addIssue({ code: 'custom', message: result.problem });
  return z.NEVER;
});

/** The filters both the page and the export take. */
export const requestLogFilterShape = {
  key: z.string().uuid({ message: 'Use the id of a key.' }).optional().describe("A key's id"),
  outcome: z.enum(REQUEST_OUTCOMES).optional(),
  status: z
    .string()
    .regex(/^[1-5]\d\d$/, 'Use an HTTP status such as 429.')
    .transform(Number)
    .optional(),
  address: addressOrRange.optional().describe('An address or a CIDR range (198.51.100.0/24)'),
  route: z.string().max(200).optional().describe('A route template, e.g. /api/v1/flights/{id}'),
  from: instant.optional().describe('Earliest, inclusive (ISO 8601)'),
  to: instant.optional().describe('Latest, exclusive (ISO 8601)'),
};

export const requestLogFilterSchema = z.object(requestLogFilterShape);
export type RequestLogFilter = z.infer<typeof requestLogFilterSchema>;

export const requestLogQuerySchema = z.object({
  ...requestLogFilterShape,
  limit: pageSize(200).describe('Page size, 1–200 (default 50)'),
  cursor: z.string().max(512).optional().describe("Opaque cursor from a previous page's next_cursor"),
});

export const requestLogPageSchema = z.object({
  data: z.array(requestLogEntrySchema).describe('Newest first'),
  next_cursor: z.string().nullable(),
});
export type RequestLogPage = z.infer<typeof requestLogPageSchema>;
