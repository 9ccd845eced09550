import type { AuditEvent } from './activity-api.ts';
import { roleLabel } from '../users/roles.ts';

/** Who did it: the user's e-mail, or "System" for what airkey did by itself (e.g. expiry). */
export function actorOf(event: AuditEvent): string {
  if (event.actor.type === 'system') return 'System';
  return event.actor.email ?? 'A deleted user';
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** What happened, as one sentence a System Administrator reads at a glance. */
export function describeEvent(event: AuditEvent): string {
  const name = event.target.name ? `“${event.target.name}”` : 'an item';
  const hint = text(event.detail.hint);
  const key = hint ? `API key ${name} (${hint})` : `API key ${name}`;
  switch (event.action) {
    case 'api_key.created': {
      const expires = text(event.detail.expires_at);
      return `Created ${key}${expires ? `, expiring ${expires}` : ', never expiring'}`;
    }
    case 'api_key.enabled':
      return `Enabled ${key}`;
    case 'api_key.disabled':
      return event.detail.reason === 'unused'
        ? `Disabled ${key}: unused for ${String(event.detail.disable_unused_after_days)} days`
        : `Disabled ${key}`;
    case 'api_key.deleted':
      return `Deleted ${key}`;
    case 'api_key.expired':
      return `${key} expired`;
    case 'api_key.allowed_ips_changed': {
      const after = event.detail.after;
      const count = Array.isArray(after) ? after.length : 0;
      const where =
        count === 0 ? 'any address' : `${count} ${count === 1 ? 'address or range' : 'addresses or ranges'}`;
      return `Limited ${key} to ${where}`;
    }
    case 'api_key.quota_changed': {
      const after = event.detail.after as { requests?: unknown; period?: unknown } | null | undefined;
      if (!after || typeof after.requests !== 'number') return `Removed the quota of ${key}`;
      const per = after.period === 'total' ? 'in total' : after.period === 'month' ? 'a month' : 'a day';
      return `Set the quota of ${key} to ${after.requests.toLocaleString('en-GB')} requests ${per}`;
    }
    case 'api_key.quota_reset':
      return `Reset the quota of ${key}`;
    case 'user.signed_in':
      return 'Signed in';
    case 'user.sign_in_failed':
      return 'Failed sign-in (wrong password)';
    case 'user.sign_in_locked':
      return event.detail.locked === 'password'
        ? `Locked password sign-in of ${name} for the hour (100 wrong passwords)`
        : `Locked the second-factor step of ${name} for 15 minutes (10 wrong codes)`;
    case 'user.created':
      return `Added user ${name}${rolesText(event.detail.roles)}`;
    case 'user.roles_changed':
      return `Changed the roles of ${name}${rolesText(event.detail.to)}`;
    case 'user.deleted':
      return `Deleted user ${name}`;
    case 'tenant.authority_changed': {
      const authority = text(event.detail.to);
      return `Changed key authority${authority ? ` to “${authority === 'system' ? 'system user' : 'creator'}”` : ''}`;
    }
    case 'tenant.key_policy_changed':
      return 'Changed the key policy';
    case 'webhook.created':
      return `Added webhook endpoint ${name}`;
    case 'webhook.updated':
      return `Changed webhook endpoint ${name}`;
    case 'webhook.deleted':
      return `Deleted webhook endpoint ${name}`;
    case 'webhook.secret_rotated':
      return `Rotated the signing secret of webhook endpoint ${name}`;
    default:
      return event.action.startsWith('oauth.') ? describeOAuth(event) : event.action;
  }
}

/** Apps connected with OAuth (docs/oauth.md): approved, denied, registered, revoked. */
function describeOAuth(event: AuditEvent): string {
  const app = event.target.name ? `“${event.target.name}”` : 'an app';
  const resource = text(event.detail.resource);
  const on = resource ? ` on the ${resource.endsWith('/mcp') ? 'MCP server' : 'API'}` : '';
  switch (event.action) {
    case 'oauth.client_registered':
      // A document app never registered: its client_id is the address of the document it published.
      return event.detail.by_document === true
        ? `App ${app} introduced itself with its document on ${hostOf(event.target.id)}`
        : `App ${app} registered itself`;
    case 'oauth.app_approved':
      return `Connected app ${app}${on}`;
    case 'oauth.app_denied':
      return event.detail.reason === 'not_allowed'
        ? `Refused app ${app}${on}: the organisation's settings do not allow it`
        : `Denied app ${app}${on}`;
    case 'oauth.grant_revoked': {
      const person = (event.detail.user as { email?: unknown } | undefined)?.email;
      const of = typeof person === 'string' && person !== event.actor.email ? ` of ${person}` : '';
      if (event.detail.by === 'refresh_token_replay')
        return `Revoked app ${app}${of}: a refresh token was used twice (possibly stolen)`;
      if (event.detail.by === 'authorization_code_replay')
        return `Revoked app ${app}${of}: an authorization code was used twice`;
      if (event.detail.by === 'client') return `App ${app}${of} disconnected itself`;
      return `Revoked app ${app}${of}`;
    }
    default:
      return event.action;
  }
}

function rolesText(roles: unknown): string {
  if (!Array.isArray(roles)) return '';
  return roles.length ? ` (${roles.map((role) => roleLabel(String(role))).join(', ')})` : ' (no roles)';
}

function hostOf(address: string | null): string {
  try {
    return new URL(address ?? '').host;
  } catch {
    return 'its own site';
  }
}
