import { parseList, type BareItem, type Item } from 'structured-headers';
import type { ApiKeyView } from '../../src/keys/key-schemas.ts';
import type { RateLimit } from '../../src/shared/limit-terms.ts';
import type { Harness, Session } from './harness.ts';

/** The RateLimit fields of a response, read with a structured-field parser (RFC 9651) nobody here wrote. */
export type RateLimitFields = {
  policy: { name: BareItem; q: BareItem | undefined; w: BareItem | undefined };
  current: { name: BareItem; r: BareItem | undefined; t: BareItem | undefined };
};

/** inject's header record (lower-case names) or a fetch Response's Headers. */
type HeaderSource = Record<string, string | string[] | number | undefined> | Headers;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return value === undefined ? undefined : String(value);
}

/** Both fields parsed as lists of one item each, or null when the response carries neither. */
export function rateLimitFieldsOf(headers: HeaderSource): RateLimitFields | null {
  const policy = header(headers, 'ratelimit-policy');
  const current = header(headers, 'ratelimit');
  if (policy === undefined && current === undefined) return null;
  const [policyItem] = parseList(policy ?? '') as Item[];
  const [currentItem] = parseList(current ?? '') as Item[];
  if (!policyItem || !currentItem) throw new Error(`incomplete RateLimit fields: ${policy} / ${current}`);
  return {
    policy: { name: policyItem[0], q: policyItem[1].get('q'), w: policyItem[1].get('w') },
    current: { name: currentItem[0], r: currentItem[1].get('r'), t: currentItem[1].get('t') },
  };
}

/** Creates a key through the back-office API with a rate limit (null: none). */
export async function createKeyWithLimit(
  session: Session,
  rateLimit: RateLimit | null,
  name = 'Limited key',
): Promise<{ api_key: ApiKeyView; secret: string }> {
  const response = await session.request('POST', '/backoffice/api/api-keys', { name, rate_limit: rateLimit });
  if (response.statusCode !== 201) throw new Error(`create key failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** `n` whoami requests with `secret`, one after another: their status codes. */
export async function whoamiStatuses(h: Harness, secret: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.api(secret, '/api/v1/whoami')).statusCode);
  return statuses;
}
