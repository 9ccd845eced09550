import { fetch as undiciFetch, type RequestInit } from 'undici';
import { safeAgent, type Resolver } from '../webhooks/safe-agent.ts';
import { forbiddenHost } from '../webhooks/url-rules.ts';

/** At most this long between fetching a client's document again, whatever its headers say (seconds). */
export const DOCUMENT_CACHE = { min: 60, max: 86_400 } as const;

/** The size a client's metadata document may have. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;

export type DocumentFetchOptions = {
  /** OAUTH_ALLOW_PRIVATE=1: a document may sit at a loopback or private address. */
  allowPrivate: boolean;
  resolver?: Resolver;
};

/**
 * The fetch the provider uses for client metadata documents: through the webhooks' address guard,
 * which resolves the name itself and connects only to the address it checked (no DNS rebinding).
 * The provider already asks for no redirects (`redirect: manual`, anything but 200 refused), a
 * 2.5 s timeout and the size limit.
 */
export function guardedFetch(
  options: DocumentFetchOptions,
): (url: string | URL, init: RequestInit) => Promise<unknown> {
  const dispatcher = safeAgent({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: 2_500,
    resolver: options.resolver,
  });
  return (url, init) => undiciFetch(url, { ...init, redirect: 'manual', dispatcher });
}

/** Whether a `client_id` URL may be fetched at all: a literal private address is refused up front. */
export function documentFetchAllowed(clientId: string, { allowPrivate }: DocumentFetchOptions): boolean {
  if (allowPrivate) return true;
  const url = new URL(clientId);
  return url.protocol === 'https:' && forbiddenHost(url.hostname) === undefined;
}

/** A document names who the app is and where it returns to; the consent page shows both. */
export function documentComplete(client: { clientName?: string; redirectUris?: string[] }): boolean {
  return Boolean(client.clientName?.trim()) && (client.redirectUris?.length ?? 0) > 0;
}
