import type { RequestOutcome } from './request-log-api.ts';

/** How each outcome reads, and its colour: every outcome the server may send has one (a Record). */
export const OUTCOMES: Record<RequestOutcome, { label: string; color: string }> = {
  ok: { label: 'OK', color: 'teal' },
  not_found: { label: 'Not found', color: 'gray' },
  invalid_request: { label: 'Invalid request', color: 'gray' },
  permission_denied: { label: 'Permission denied', color: 'orange' },
  rejected: { label: 'Key rejected', color: 'red' },
  ip_refused: { label: 'Address refused', color: 'red' },
  rate_limited: { label: 'Rate limited', color: 'yellow' },
  quota_exceeded: { label: 'Quota exceeded', color: 'yellow' },
  error: { label: 'Server error', color: 'red' },
};

export const OUTCOME_OPTIONS = Object.entries(OUTCOMES).map(([value, { label }]) => ({ value, label }));

/** "GET /api/v1/flights" or, on /mcp, "tools/call list_flights". */
export function requestText(entry: {
  method: string;
  path: string;
  mcp: { method: string; tool: string | null } | null;
}): string {
  if (entry.mcp) return `MCP ${entry.mcp.method}${entry.mcp.tool ? ` ${entry.mcp.tool}` : ''}`;
  return `${entry.method} ${entry.path}`;
}
