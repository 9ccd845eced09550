import { SSO_REFUSALS, type SsoSettings, type SsoSettingsInput } from '@contracts';

/** The sign-in page's `?reason=` in words, for a refused single sign-on; undefined for anything else. */
export function ssoReasonText(reason: string | null): string | undefined {
  if (!reason || !Object.hasOwn(SSO_REFUSALS, reason)) return undefined;
  return SSO_REFUSALS[reason as keyof typeof SSO_REFUSALS];
}

/** Where "Sign in with SSO" goes: the organisation's slug, or a work e-mail whose domain names it. */
export function ssoStartUrl(who: string, next: string): string {
  const value = who.trim();
  const query = new URLSearchParams(value.includes('@') ? { email: value } : { org: value.toLowerCase() });
  query.set('next', next);
  return `/backoffice/api/sso/start?${query.toString()}`;
}

/** The settings form's fields as text, from the saved provider (the secret is never shown). */
export type SsoDraft = {
  issuer: string;
  client_id: string;
  client_secret: string;
  allowed_domains: string;
  role_claim: string;
  /** One mapping a line: `claim value: role, role`. */
  role_map: string;
  default_roles: string[];
  create_users: boolean;
};

export function draftOf(sso: SsoSettings | null): SsoDraft {
  return {
    issuer: sso?.issuer ?? '',
    client_id: sso?.client_id ?? '',
    client_secret: '',
    allowed_domains: sso?.allowed_domains.join(', ') ?? '',
    role_claim: sso?.role_claim ?? '',
    role_map: Object.entries(sso?.role_map ?? {})
      .map(([value, roles]) => `${value}: ${roles.join(', ')}`)
      .join('\n'),
    default_roles: sso?.default_roles ?? [],
    create_users: sso?.create_users ?? false,
  };
}

/** The draft as the server takes it; the server checks every field and names the wrong one. */
export function inputOf(draft: SsoDraft): SsoSettingsInput {
  const list = (text: string) =>
    text
      .split(/[,\s]+/)
      .map((item) => item.trim())
      .filter(Boolean);
  const roleMap: Record<string, string[]> = {};
  for (const line of draft.role_map.split('\n')) {
    const at = line.lastIndexOf(':');
    if (at < 1) continue;
    roleMap[line.slice(0, at).trim()] = list(line.slice(at + 1));
  }
  return {
    issuer: draft.issuer.trim(),
    client_id: draft.client_id.trim(),
    ...(draft.client_secret ? { client_secret: draft.client_secret } : {}),
    allowed_domains: list(draft.allowed_domains),
    role_claim: draft.role_claim.trim() || null,
    role_map: roleMap as SsoSettingsInput['role_map'],
    default_roles: draft.default_roles as SsoSettingsInput['default_roles'],
    create_users: draft.create_users,
  };
}
