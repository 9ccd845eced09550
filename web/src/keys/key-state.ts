import type { ApiKey, KeyAuthority } from './keys-api.ts';
import { formatDate } from '../shared/dates.ts';

/**
 * Why a key's switch cannot be moved, if it cannot: an expired key stays expired (docs/keys.md), and
 * under creator authority a key whose creator was deleted cannot be enabled again.
 */
export function lockReason(key: ApiKey, authority: KeyAuthority): string | undefined {
  if (key.status === 'expired') {
    return key.expires_at_time
      ? `Expired on ${formatDate(key.expires_at_time)}. Create a new key instead.`
      : 'Expired. Create a new key instead.';
  }
  // Enabling a leaked key is refused (409 api_key_leaked): its secret is public; roll it instead.
  if (!key.enabled && key.disabled_reason === 'leaked') {
    return 'Reported leaked: it cannot be enabled again. Roll it to get a new key, then update whatever used this one.';
  }
  if (!key.enabled && key.disabled_reason === 'creator_deleted' && authority === 'creator') {
    return 'Disabled because its creator was deleted. Create a new key instead.';
  }
  return undefined;
}

/** A short status line for the key's switch. */
export function statusText(key: ApiKey): string {
  if (key.status === 'expired') return 'Expired';
  if (key.enabled) return 'Enabled';
  if (key.disabled_reason === 'leaked') return 'Disabled — reported leaked';
  return key.disabled_reason === 'creator_deleted' ? 'Disabled: creator deleted' : 'Disabled';
}

/** Why a key is disabled, in words, for its details. */
export function disabledReasonText(key: ApiKey): string | undefined {
  if (key.enabled || key.status === 'expired') return undefined;
  switch (key.disabled_reason) {
    case 'leaked':
      return 'Reported leaked: its secret was found where others can read it. Roll it to get a new key.';
    case 'creator_deleted':
      return 'Its creator was deleted, and the key acted as that user.';
    case 'disabled_by_user':
      return 'Disabled by a user; it can be enabled again.';
    default:
      return undefined;
  }
}
