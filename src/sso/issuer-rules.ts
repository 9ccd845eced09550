import { InvalidRequestError } from '../shared/errors.ts';
import { forbiddenHost } from '../webhooks/url-rules.ts';

/**
 * Where an identity provider may be (docs/sso.md): an `https:` issuer at a public address. A
 * loopback or private one, and plain http:, only with SSO_ALLOW_PRIVATE=1 (a provider inside the
 * network, development, tests). The address actually connected to is checked again at every request.
 */
export function checkIssuer(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('An absolute URL such as https://login.example.com.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('Use an https: URL.');
  if (url.username || url.password) throw invalid('An issuer without a user name or password.');
  if (url.search || url.hash) throw invalid('An issuer has no query or fragment.');
  if (!allowPrivate) {
    if (url.protocol !== 'https:') throw invalid('The issuer must be https: (SSO_ALLOW_PRIVATE=1 allows http:).');
    const reason = forbiddenHost(url.hostname);
    if (reason)
      throw invalid(
        `${reason.replace('receive webhooks', 'be an identity provider')} (SSO_ALLOW_PRIVATE=1 allows it).`,
      );
  }
  // The issuer is compared exactly with the ID token's `iss`: keep it as written, without a trailing slash added.
  return raw.trim();
}

function invalid(message: string): InvalidRequestError {
  return InvalidRequestError.field('sso.issuer', message);
}
