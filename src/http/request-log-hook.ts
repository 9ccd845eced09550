import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLogSink } from '../request-log/request-log-sink.ts';
import { outcomeOf } from '../request-log/request-record.ts';
import type { Clock } from '../shared/clock.ts';
import { scrubUrl } from '../shared/redaction.ts';

const USER_AGENT_MAX = 256;
const MCP_NAME_MAX = 100;

/**
 * The request log's one hook, run when the response is done (docs/request-log.md): it reads what
 * the request already knows (the key the check accepted or refused, the client address, the
 * route, the status, the problem code, the time, the trace) and appends one record to the
 * writer's buffer; nothing is computed for the log before the answer goes. A request that named
 * no key of a tenant (no key, a guess, the back office) is not recorded. Never the key, the query
 * string, a header other than the user agent, or a body: only an MCP request's JSON-RPC method and
 * tool name are read from it.
 */
export function requestLogRecorder(writer: RequestLogSink, clock: Clock) {
  return function recordRequest(request: FastifyRequest, reply: FastifyReply): void {
    const principal = request.principal ?? request.refusedKey;
    if (principal === undefined) return;
    const status = reply.statusCode;
    const durationMs = reply.elapsedTime;
    const route = templateOf(request.routeOptions.url ?? '');
    const mcp = route === '/mcp' ? mcpCallOf(request.body, request.headers) : undefined;
    writer.record({
      atMs: clock.nowMs() - Math.round(durationMs),
      tenantId: principal.tenant.id,
      credential: principal.credential === 'oauth' ? 'oauth' : 'key',
      keyId: principal.key.id,
      keyName: principal.key.name,
      keyHint: principal.credential === 'oauth' ? null : principal.key.hint,
      method: request.method,
      path: pathOf(request.url),
      route,
      status,
      outcome: outcomeOf(status, request.problemCode),
      address: request.client || null,
      userAgent: userAgentOf(request.headers['user-agent']),
      durationMs: Math.round(durationMs * 100) / 100,
      traceId: request.traceSpan?.spanContext().traceId ?? null,
      mcpMethod: mcp?.method ?? null,
      mcpTool: mcp?.tool ?? null,
    });
  };
}

/** The path only: the query string never enters the log (a key may travel in it), and a key-shaped segment is scrubbed. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return textOf(query === -1 ? url : url.slice(0, query));
}

function userAgentOf(value: string | undefined): string | null {
  return value === undefined ? null : textOf(value.slice(0, USER_AGENT_MAX));
}

/**
 * What a client sent, as PostgreSQL text can hold it: a NUL (which a JSON body can carry) would
 * fail the whole batch on every retry, so it becomes U+FFFD. Any key-shaped part is scrubbed.
 */
function textOf(value: string): string {
  return scrubUrl(value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value);
}

// Fastify's `/api/v1/flights/:id` as OpenAPI writes it, `/api/v1/flights/{id}`; a handful of routes, each converted once.
const templates = new Map<string, string>();
function templateOf(url: string): string {
  let template = templates.get(url);
  if (template === undefined) templates.set(url, (template = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
  return template;
}

/**
 * The JSON-RPC method of an MCP request and, for `tools/call`, the tool. When the body was never
 * read (the key was refused first), the `Mcp-Method` and `Mcp-Name` headers a 2026-07-28 client
 * sends say the same; a 2025-era client sends neither, and the entry has none.
 */
function mcpCallOf(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): { method: string; tool: string | null } | undefined {
  if (body === undefined) body = { method: headers['mcp-method'], params: { name: headers['mcp-name'] } };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (typeof method !== 'string') return undefined;
  const tool = method === 'tools/call' && typeof params?.name === 'string' ? params.name : null;
  return {
    method: textOf(method.slice(0, MCP_NAME_MAX)),
    tool: tool === null ? null : textOf(tool.slice(0, MCP_NAME_MAX)),
  };
}
