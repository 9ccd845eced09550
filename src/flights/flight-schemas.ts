import { z } from 'zod';
import { pageSize } from '../shared/page-size.ts';

/**
 * One definition of the flights API's inputs and outputs: it validates REST requests, documents
 * them in OpenAPI and types the MCP tools' inputs.
 */
export const FLIGHT_STATUSES = ['scheduled', 'boarding', 'departed', 'arrived', 'delayed', 'cancelled'] as const;
export type FlightStatus = (typeof FLIGHT_STATUSES)[number];

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A real calendar date (no 30 February rolled over into March), optionally with a time and offset. */
function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const instant = z.string().refine(isInstant, {
  message: 'Use a real ISO 8601 date (2026-11-22) or date-time with offset (2026-11-22T06:00:00Z).',
});

const airport = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'Use a three-letter IATA airport code, such as LHR.')
  .describe('IATA airport code, three letters (case-insensitive), e.g. LHR');

export const flightFilterShape = {
  from: instant
    .optional()
    .describe('Earliest scheduled departure, inclusive (ISO 8601; UTC when only a date is given)'),
  to: instant.optional().describe('Latest scheduled departure, exclusive (ISO 8601; UTC when only a date is given)'),
  origin: airport.optional(),
  destination: airport.optional(),
  status: z
    .enum(FLIGHT_STATUSES)
    .optional()
    .describe(
      'scheduled: not yet boarding; boarding: gate open; departed: in the air; arrived: landed; delayed: will depart later than scheduled; cancelled: will not operate',
    ),
  flight_number: z
    .string()
    .regex(/^[A-Za-z0-9]{2}\d{1,4}[A-Za-z]?$/, 'Use a flight number such as DA1234.')
    .optional()
    .describe('Exact flight number, e.g. DA1234 (case-insensitive)'),
  limit: pageSize(500).describe('Page size, 1–500 (default 50)'),
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe("Opaque cursor from a previous page's next_cursor; send the same filters with it"),
};

export const flightQuerySchema = z.object(flightFilterShape);
export type FlightQuery = z.infer<typeof flightQuerySchema>;

export const flightIdSchema = z.object({
  id: z.string().min(1).max(100).describe('Flight id (a UUID, from list_flights or GET /api/v1/flights)'),
});

export const flightSchema = z.object({
  id: z.string().describe('Flight id (UUID)'),
  flight_number: z.string(),
  origin: z.string().describe('IATA code of the departure airport'),
  destination: z.string().describe('IATA code of the arrival airport'),
  scheduled_departure: z.string().describe('ISO 8601, UTC'),
  scheduled_arrival: z.string().describe('ISO 8601, UTC'),
  status: z.enum(FLIGHT_STATUSES),
  aircraft: z.object({ registration: z.string(), type: z.string().describe('ICAO type designator, e.g. A20N') }),
});
export type Flight = z.infer<typeof flightSchema>;

export const flightPageSchema = z.object({
  data: z.array(flightSchema),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page'),
});
export type FlightPage = z.infer<typeof flightPageSchema>;
