/**
 * Why a single sign-on did not sign anyone in (docs/sso.md, the refusal table). The code travels
 * to the sign-in page as `?reason=` and into the audit entry; it names the rule, never a token.
 */
export const SSO_REFUSALS = {
  sso_not_configured: 'This organisation does not sign in with single sign-on.',
  sso_unknown_organisation: 'No organisation signs in with single sign-on under that name or e-mail domain.',
  sso_state_invalid: 'The sign-in was not started in this browser, or was already used. Start again.',
  sso_issuer_mismatch: 'The answer came from another identity provider than the one asked.',
  sso_provider_error: 'The identity provider did not sign you in.',
  sso_provider_unreachable: 'The identity provider could not be reached.',
  sso_nonce_mismatch: 'The identity provider’s answer does not belong to this sign-in.',
  sso_signature_invalid: 'The identity provider’s answer is not signed by its own keys.',
  sso_token_expired: 'The identity provider’s answer has expired.',
  sso_token_invalid: 'The identity provider’s answer could not be verified.',
  sso_email_missing: 'The identity provider gave no e-mail address.',
  sso_email_unverified: 'The identity provider has not verified your e-mail address.',
  sso_domain_not_allowed: 'Your e-mail domain may not sign in to this organisation.',
  sso_identity_conflict: 'Your account is linked to another identity; ask a System Administrator.',
  sso_user_other_organisation: 'Your e-mail address belongs to another organisation.',
  sso_user_unknown: 'You have no account here; ask a System Administrator to add you.',
  sso_reauthentication_mismatch: 'The identity provider signed in someone else than you.',
} as const;
export type SsoRefusalCode = keyof typeof SSO_REFUSALS;

/** A sign-in the rules refused: an outcome (the page says why), not a fault. */
export class SsoRefusal extends Error {
  readonly reason: SsoRefusalCode;
  /** What the audit entry may add (a provider's error code, a claim name); never a token. */
  readonly detail: Record<string, unknown>;
  constructor(reason: SsoRefusalCode, detail: Record<string, unknown> = {}) {
    super(SSO_REFUSALS[reason]);
    this.reason = reason;
    this.detail = detail;
  }
}
