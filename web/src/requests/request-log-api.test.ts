import { describe, expect, it } from 'vitest';
import { exportHref, filterQuery, NO_FILTERS } from './request-log-api.ts';
import { requestText } from './outcome-text.ts';

describe('request log filters', () => {
  it('sends only the filters in use, times in UTC as the table shows them', () => {
    const query = filterQuery({
      ...NO_FILTERS,
      outcome: 'rate_limited',
      address: ' 198.51.100.0/24 ',
      from: '2026-11-22T10:00',
    });
    expect(Object.fromEntries(query)).toEqual({
      outcome: 'rate_limited',
      address: '198.51.100.0/24',
      from: '2026-11-22T10:00Z',
    });
  });

  it('exports the same filters, or everything without any', () => {
    expect(exportHref(NO_FILTERS)).toBe('/backoffice/api/request-log/export');
    expect(exportHref({ ...NO_FILTERS, status: '429' })).toBe('/backoffice/api/request-log/export?status=429');
  });

  it('names an MCP call by its method and tool, an API call by its method and path', () => {
    expect(requestText({ method: 'POST', path: '/mcp', mcp: { method: 'tools/call', tool: 'whoami' } })).toBe(
      'MCP tools/call whoami',
    );
    expect(requestText({ method: 'GET', path: '/api/v1/flights', mcp: null })).toBe('GET /api/v1/flights');
  });
});
