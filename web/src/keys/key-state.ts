import type { ApiKey, KeyAuthority } from './keys-api.ts';
import { formatDate } from '../shared/dates.ts';

/**
 * Why a key's switch cannot be moved, if it cannot: an expired key stays expired (docs/keys.md), and
 * under creator authority a key whose creator was deleted cannot be enabled again.
 */
export function lockReason(key: ApiKey, authority: KeyAuthority): string | undefined {
  if (key.status === 'expired') {
    return key.expires_at_time ? `Expired on ${formatDate(key.expires_at_time)}. Create a new key instead.` : 'Expired. Create a new key instead.';
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
  return key.disabled_reason === 'creator_deleted' ? 'Disabled: creator deleted' : 'Disabled';
}
