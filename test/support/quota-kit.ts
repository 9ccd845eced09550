import { parseList, type BareItem, type Item } from 'structured-headers';
import type { ApiKeyView } from '../../src/keys/key-schemas.ts';
import type { Quota, RateLimit } from '../../src/shared/limit-terms.ts';
import type { Harness, Session } from './harness.ts';

type HeaderSource = Record<string, string | string[] | number | undefined>;
type Params = Record<string, BareItem>;

/**
 * Every member of both RateLimit fields, by name (`key`, `quota`), parsed with a structured-field
 * parser (RFC 9651) nobody here wrote; null when the response carries neither field.
 */
export function limitMembersOf(
  headers: HeaderSource,
): { policy: Record<string, Params>; current: Record<string, Params> } | null {
  const policy = headers['ratelimit-policy'];
  const current = headers['ratelimit'];
  if (policy === undefined && current === undefined) return null;
  return { policy: membersOf(String(policy ?? '')), current: membersOf(String(current ?? '')) };
}

function membersOf(field: string): Record<string, Params> {
  const members: Record<string, Params> = {};
  for (const [name, params] of parseList(field) as Item[]) members[name as string] = Object.fromEntries(params);
  return members;
}

/** Creates a key through the back-office API with a quota and, optionally, a rate limit. */
export async function createKeyWithQuota(
  session: Session,
  quota: Quota | null,
  extra: { rate_limit?: RateLimit; allowed_ips?: string[]; name?: string } = {},
): Promise<{ api_key: ApiKeyView; secret: string }> {
  const { name = 'Metered key', ...rules } = extra;
  const response = await session.request('POST', '/backoffice/api/api-keys', { name, quota, ...rules });
  if (response.statusCode !== 201) throw new Error(`create key failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The key as the back office lists it now (its `quota.used` after a flush). */
export async function listedKey(h: Harness, session: Session, id: string): Promise<ApiKeyView> {
  await h.services.limits.quotaMeter.flush();
  const response = await session.request('GET', '/backoffice/api/api-keys');
  const key = response.json<{ data: ApiKeyView[] }>().data.find((k) => k.id === id);
  if (!key) throw new Error(`key ${id} not listed`);
  return key;
}
