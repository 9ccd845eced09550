import { describe, expect, it } from 'vitest';
import { keyFixture } from './key-fixture.ts';
import { disabledReasonText, lockReason, statusText } from './key-state.ts';

const key = keyFixture;

describe('the enabled switch of a key', () => {
  it('moves freely for an enabled or user-disabled key', () => {
    expect(lockReason(key({}), 'creator')).toBeUndefined();
    expect(
      lockReason(key({ enabled: false, status: 'disabled', disabled_reason: 'disabled_by_user' }), 'creator'),
    ).toBeUndefined();
  });

  it('is locked with the date for an expired key, even one still flagged enabled', () => {
    const expired = key({ status: 'expired', expires_at: '2026-11-20', expires_at_time: '2026-11-20T00:00:00.000Z' });
    expect(lockReason(expired, 'creator')).toBe('Expired on 20 Nov 2026. Create a new key instead.');
    expect(statusText(expired)).toBe('Expired');
  });

  it('is locked when the creator was deleted under creator authority only', () => {
    const orphan = key({ enabled: false, status: 'disabled', disabled_reason: 'creator_deleted', created_by: null });
    expect(lockReason(orphan, 'creator')).toMatch(/creator was deleted/);
    expect(lockReason(orphan, 'system')).toBeUndefined();
    expect(statusText(orphan)).toBe('Disabled: creator deleted');
  });

  it('is locked for a key reported leaked, with the advice to roll it, whatever the authority', () => {
    const leaked = key({ enabled: false, status: 'disabled', disabled_reason: 'leaked' });
    expect(statusText(leaked)).toBe('Disabled — reported leaked');
    expect(lockReason(leaked, 'creator')).toMatch(/^Reported leaked: it cannot be enabled again\. Roll it/);
    expect(lockReason(leaked, 'system')).toBe(lockReason(leaked, 'creator'));
    expect(disabledReasonText(leaked)).toMatch(/Roll it/);
  });

  it('gives no reason for an enabled key', () => {
    expect(disabledReasonText(key({}))).toBeUndefined();
  });
});
