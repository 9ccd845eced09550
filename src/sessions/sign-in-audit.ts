import type { SignInMethod } from './session-rules.ts';

/** Who is signing in, as the key check would see them (TRUSTED_PROXIES) and as their browser says. */
export type ClientContext = { address: string; userAgent: string };

// A browser string is the client's to choose: long enough to recognise, never unbounded.
const USER_AGENT_KEPT = 256;

export function asActor(user: { id: string; email: string }) {
  return { type: 'user', id: user.id, email: user.email } as const;
}

export function userTarget(user: { id: string; email: string }) {
  return { type: 'user', id: user.id, name: user.email } as const;
}

/** The browser string as kept on a session and in the audit trail. */
export function keptUserAgent(client: ClientContext): string {
  return client.userAgent.slice(0, USER_AGENT_KEPT);
}

/** The audit detail of every sign-in attempt: how, from where, with what browser. */
export function signInDetail(method: SignInMethod, client: ClientContext): Record<string, unknown> {
  return { method, address: client.address, user_agent: keptUserAgent(client) };
}
