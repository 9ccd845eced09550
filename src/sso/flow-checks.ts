import { SsoRefusal } from './sso-refusals.ts';

/**
 * Whether a taken flow may be answered (docs/sso.md (The flow)): not used before, not expired, and
 * brought back by the browser that started it (the digest of its flow cookie). A refusal, or none.
 */
export function flowRefusal(
  taken: { replayed: boolean; flow: { expiresAt: Date; browserDigest: string } },
  browserDigest: string | undefined,
  nowMs: number,
): SsoRefusal | undefined {
  if (taken.replayed) return new SsoRefusal('sso_state_invalid', { why: 'replayed' });
  if (taken.flow.expiresAt.getTime() <= nowMs) return new SsoRefusal('sso_state_invalid', { why: 'expired' });
  if (browserDigest !== taken.flow.browserDigest)
    return new SsoRefusal('sso_state_invalid', { why: 'another_browser' });
  return undefined;
}
