import { describe, expect, it } from 'vitest';
import { InvalidRequestError, WebhookUrlRejectedError } from '../../../src/shared/errors.ts';
import { checkWebhookUrl, forbiddenHost } from '../../../src/webhooks/url-rules.ts';

const strict = { allowPrivate: false };

/** Save-time URL rules (docs/webhooks.md): literal addresses judged now, names left to the connect-time check. */
describe('webhook URL rules at save time', () => {
  it('accepts a public https: URL and a host name, normalised', () => {
    expect(checkWebhookUrl('https://Hooks.Example.com/in?x=1', strict)).toBe('https://hooks.example.com/in?x=1');
    expect(checkWebhookUrl('https://internal.corp/in', strict)).toBe('https://internal.corp/in');
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['[::1]', 'loopback'],
    ['[fe80::1]', 'linkLocal'],
    ['[fc00::1]', 'uniqueLocal'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
  ])('refuses the literal address %s (%s)', (host, range) => {
    const reason = forbiddenHost(host);
    expect(reason).toContain(range);
    expect(() => checkWebhookUrl(`https://${host}/in`, strict)).toThrow(WebhookUrlRejectedError);
  });

  it('refuses localhost and its subdomains, with or without a trailing dot', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'a.localhost']) expect(forbiddenHost(host)).toBeDefined();
    expect(forbiddenHost('localhost.example.com')).toBeUndefined();
  });

  it('sees through the other ways of writing 127.0.0.1, as the URL parser normalises them', () => {
    for (const host of ['2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1']) {
      expect(() => checkWebhookUrl(`https://${host}/`, strict)).toThrow(WebhookUrlRejectedError);
    }
  });

  it('names url in the invalid_request for malformed, credentialed, non-http(s) and over-long URLs', () => {
    for (const raw of ['nope', 'ftp://x.example/', 'https://a:b@x.example/', `https://x.example/${'a'.repeat(2040)}`]) {
      try {
        checkWebhookUrl(raw, strict);
        expect.unreachable(raw);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect((error as InvalidRequestError).errors.map((each) => each.path)).toEqual(['url']);
      }
    }
  });

  it('lets http: and private addresses through with WEBHOOK_ALLOW_PRIVATE=1, never credentials', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/in', { allowPrivate: true })).toBe('http://127.0.0.1:8080/in');
    expect(() => checkWebhookUrl('http://u:p@127.0.0.1/', { allowPrivate: true })).toThrow(InvalidRequestError);
  });
});
