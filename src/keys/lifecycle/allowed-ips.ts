import type { AuditService } from '../../audit/audit-service.ts';
import type { Db } from '../../db/handle.ts';
import type { ChangeRecorder, EventEmitter } from '../../db/unit-of-work.ts';
import type { UserActor } from '../../shared/actor.ts';
import { InvalidRequestError } from '../../shared/errors.ts';
import { canonicalIpList, MAX_ALLOWED_IPS } from '../../shared/ip-entries.ts';
import { keyEvent } from '../events/key-events.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { KeyRowWithCreator } from '../key-rows.ts';
import { keyTarget } from '../key-view.ts';

/**
 * A key's `allowed_ips` as given (create, PATCH) made canonical (docs/keys.md (IP allowlists)):
 * undefined stays undefined (not given), null is any address, a list is 1–50 entries, each an
 * address or a range without host bits, duplicates dropped. The route's schema says the same;
 * this holds for every adapter, and produces the stored form.
 */
export function allowedIpsOf(given: readonly unknown[] | null | undefined): string[] | null | undefined {
  if (given === undefined || given === null) return given;
  if (given.length === 0) {
    throw InvalidRequestError.field('allowed_ips', 'Give at least one address or range, or null for any address.');
  }
  if (given.length > MAX_ALLOWED_IPS) {
    throw InvalidRequestError.field('allowed_ips', `At most ${MAX_ALLOWED_IPS} addresses or ranges.`);
  }
  const result = canonicalIpList(given);
  if (result.ok) return result.entries;
  const errors = result.problems.map(({ index, problem }) => ({ path: `allowed_ips.${index}`, message: problem }));
  throw new InvalidRequestError(errors, errors.length === 1 ? errors[0]!.message : 'Some addresses are not valid.');
}

export type AllowedIpsStep = {
  tx: Db;
  changed: ChangeRecorder;
  emit: EventEmitter;
  actor: UserActor;
  now: Date;
  keys: KeyRepository;
  audit: AuditService;
};

/**
 * Sets a key's list inside the caller's transaction: audited with before and after, announced as
 * `api_key.allowed_ips_changed`, and published like a disable, so that every instance drops the
 * facts it cached for the key before the response is sent (a narrower list is a revocation,
 * docs/keys.md (Revocation)). The same list again changes and records nothing.
 */
export async function applyAllowedIps(
  { tx, changed, emit, actor, now, keys, audit }: AllowedIpsStep,
  key: KeyRowWithCreator,
  list: string[] | null,
): Promise<KeyRowWithCreator> {
  const before = key.allowedIps;
  if (sameList(before, list)) return key;
  await keys.setRules(tx, key.id, { allowedIps: list });
  await audit.record(tx, actor.tenantId, actor, 'api_key.allowed_ips_changed', keyTarget(key), {
    hint: key.hint,
    before,
    after: list,
  });
  changed({ type: 'key', id: key.id });
  const after = { ...key, allowedIps: list };
  emit(keyEvent('api_key.allowed_ips_changed', after, now.getTime(), actor, { before, after: list }));
  return after;
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}
