import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { FlightService } from '../flights/flight-service.ts';
import { flightIdSchema, flightPageSchema, flightQuerySchema, flightSchema } from '../flights/flight-schemas.ts';
import { problemOf } from '../problems/problem.ts';
import { whoamiSchema, type KeyLimitsView } from '../keys/key-schemas.ts';
import type { Principal } from '../shared/principal.ts';
import { tokenWhoamiSchema } from '../oauth/token-facts.ts';

/** What the tools need: the principal of this HTTP request, already checked, and the services. */
export type ToolContext = {
  principal: Principal;
  /** What the key had left after this request's rate limit and quota, as `GET /api/v1/whoami` reports it. */
  limits: KeyLimitsView;
  flights: FlightService;
  /** Unexpected faults (5xx) go here to be logged; the caller sees a generic message only. */
  onFault: (error: unknown) => void;
  /** A catalogued refusal's code (permission_denied, not_found), for the request's log entry and line. */
  onRefused?: (code: string) => void;
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const STATUS_GUIDE =
  'Statuses: scheduled (not boarding yet), boarding (gate open), departed (in the air), arrived (landed), ' +
  'delayed (will leave later than scheduled), cancelled (will not operate).';

/**
 * The three MCP tools. Each is a thin adapter: the same schemas as REST for inputs and outputs,
 * the same services for the work, and so the same permission check (FlightService calls
 * requireKeyPermission). A refusal becomes a tool error carrying the catalogued code, never data.
 */
export function registerTools(server: McpServer, context: ToolContext): void {
  const { principal, flights } = context;

  server.registerTool(
    'list_flights',
    {
      title: 'List flights',
      description:
        "Lists your airline's flights, ordered by scheduled departure (then id). All times are UTC (ISO 8601). " +
        'Filter by departure window (from inclusive, to exclusive), origin/destination IATA code, status and flight number; ' +
        'all filters combine with AND. Returns up to `limit` flights (default 50, max 500) and `next_cursor`: ' +
        'when it is not null, call again with the same filters and `cursor` set to it for the next page; null means the last page. ' +
        STATUS_GUIDE,
      inputSchema: flightQuerySchema,
      outputSchema: flightPageSchema,
      annotations: READ_ONLY,
    },
    async (query) =>
      guarded(context, async () => {
        return structured(await flights.list(principal, query));
      }),
  );

  server.registerTool(
    'get_flight',
    {
      title: 'Get a flight',
      description:
        'Returns one flight by its id (a UUID, as returned by list_flights): flight number, route (IATA codes), ' +
        'scheduled departure and arrival in UTC, status and aircraft. ' +
        STATUS_GUIDE,
      inputSchema: flightIdSchema,
      outputSchema: flightSchema,
      annotations: READ_ONLY,
    },
    async ({ id }) =>
      guarded(context, async () => {
        return structured(await flights.get(principal, id));
      }),
  );

  if (principal.credential === 'oauth') {
    // Signed in through OAuth (docs/oauth.md): the app and the person it acts as, no key, no limits.
    server.registerTool(
      'whoami',
      {
        title: 'Who am I',
        description:
          'Describes this connection: its tenant (airline), the app signed in through OAuth, the person it acts as, ' +
          'and the permissions that person holds right now. ' +
          'Call it to check access before other tools; list_flights and get_flight need flights:read.',
        outputSchema: tokenWhoamiSchema,
        annotations: READ_ONLY,
      },
      async () => guarded(context, () => Promise.resolve(structured(tokenWhoamiSchema.parse(principal)))),
    );
    return;
  }

  server.registerTool(
    'whoami',
    {
      title: 'Who am I',
      description:
        'Describes the API key in use: its tenant (airline), the key (id, name, hint, expiry date), who it acts as ' +
        '(a user under creator authority, or the system), the permissions it holds right now, and what it has ' +
        'left of its rate limit and quota (null where it has none). ' +
        'Call it to check access before other tools; list_flights and get_flight need flights:read.',
      outputSchema: whoamiSchema,
      annotations: READ_ONLY,
    },
    async () =>
      guarded(context, () =>
        // Parsed so only the documented fields leave, exactly as the REST serializer does.
        Promise.resolve(structured(whoamiSchema.parse({ ...principal, limits: context.limits }))),
      ),
  );
}

/**
 * The MCP specification: a tool returning structured content SHOULD also return it serialized as
 * JSON in a text block, for clients that read only `content`. Exactly the same JSON, so nothing an
 * agent needs (ids, next_cursor) exists in one form and not the other.
 */
function structured(value: Record<string, unknown>): CallToolResult {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** Catalogued errors become tool errors with their public code and detail; faults stay opaque. */
async function guarded(context: ToolContext, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const problem = problemOf(error);
    if (problem.status >= 500) context.onFault(error);
    else context.onRefused?.(problem.code);
    return { isError: true, content: [{ type: 'text', text: `${problem.code}: ${problem.detail}` }] };
  }
}
