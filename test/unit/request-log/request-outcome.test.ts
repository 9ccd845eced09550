import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../../../src/request-log/request-record.ts';

/** How a request ended, from its status and problem code (docs/request-log.md (Outcomes)). */
describe('a request log outcome', () => {
  it.each([
    [200, undefined, 'ok'],
    [304, undefined, 'ok'],
    [404, 'not_found', 'not_found'],
    [400, 'invalid_request', 'invalid_request'],
    [403, 'permission_denied', 'permission_denied'],
    [401, 'api_key_disabled', 'rejected'],
    [401, 'api_key_expired', 'rejected'],
    [401, 'api_key_invalid', 'rejected'],
    [403, 'api_key_ip_not_allowed', 'ip_refused'],
    [429, 'rate_limited', 'rate_limited'],
    [429, 'quota_exceeded', 'quota_exceeded'],
    [500, undefined, 'error'],
    [503, 'unavailable', 'error'],
    // An MCP tool refused: the HTTP answer is 200, the code says how it ended.
    [200, 'permission_denied', 'permission_denied'],
    [200, 'not_found', 'not_found'],
  ] as const)('%i with %s is %s', (status, code, outcome) => {
    expect(outcomeOf(status, code)).toBe(outcome);
  });
});
