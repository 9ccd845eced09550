import ipaddr from 'ipaddr.js';
import { InvalidRequestError, WebhookUrlRejectedError } from '../shared/errors.ts';
import { WEBHOOK_URL_MAX } from './webhook-schemas.ts';

export type UrlRuleOptions = { allowPrivate: boolean };

/**
 * The checks a webhook URL passes when it is saved. A host name is accepted here whether or not it
 * resolves: what it resolves to can change, so the delivery side checks the address it actually
 * connects to at every attempt. Only literal addresses and `localhost` can be judged now.
 */
export function checkWebhookUrl(raw: string, { allowPrivate }: UrlRuleOptions): string {
  if (raw.length > WEBHOOK_URL_MAX) throw invalid(`At most ${WEBHOOK_URL_MAX} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('An absolute URL such as https://example.com/hooks.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('Use an https: URL.');
  // Credentials in a URL end up in logs and on every screen that shows it.
  if (url.username || url.password) throw invalid('A URL without a user name or password.');
  if (allowPrivate) return url.href;
  if (url.protocol !== 'https:') throw new WebhookUrlRejectedError('The URL is not https:.');
  const reason = forbiddenHost(url.hostname);
  if (reason) throw new WebhookUrlRejectedError(reason);
  return url.href;
}

/** Why a literal host may not receive webhooks, or undefined for a public address or a name. */
export function forbiddenHost(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost cannot receive webhooks.';
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(literal)) return undefined;
  let address = ipaddr.parse(literal);
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  // Only public unicast: loopback, private, link-local, unique-local and every other special range
  // (unspecified, carrier-grade NAT, tunnels that embed an IPv4 address) are refused.
  const range = address.range();
  return range === 'unicast' ? undefined : `The address ${literal} is in the ${range} range.`;
}

function invalid(message: string): InvalidRequestError {
  return InvalidRequestError.field('url', message);
}
