import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { addWebhook, fieldsOf, HOOKS, PUBLIC_URL } from '../../support/webhook-kit.ts';

/** docs/webhooks.md, bad input: 400 invalid_request naming the field, 400 webhook_url_rejected, 409 for the 11th. */
describe('bad webhook input', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  const malformed: Array<[string, unknown]> = [
    ['a relative URL', '/hooks'],
    ['no URL at all', 'not a url'],
    ['a non-http(s) scheme', 'ftp://example.com/hooks'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a URL with a user and password', 'https://user:secret@example.com/hooks'],
    ['a URL with a user only', 'https://user@example.com/hooks'],
    ['a URL over 2,048 characters', `https://example.com/${'a'.repeat(2030)}`],
    ['a number', 42],
  ];
  it.each(malformed)('refuses %s with 400 invalid_request naming url', async (_what, url) => {
    const admin = await h.signedIn();
    const response = await admin.request('POST', HOOKS, { url });
    expectProblem(response, 400, 'invalid_request');
    expect(fieldsOf(response)).toContain('url');
    expect((await admin.request('GET', HOOKS)).json()).toEqual({ data: [] });
  });

  const forbidden = [
    'http://example.com/hooks',
    'https://localhost/hooks',
    'https://api.localhost/hooks',
    'https://127.0.0.1/hooks',
    'https://127.1/hooks',
    'https://0x7f000001/hooks',
    'https://10.1.2.3/hooks',
    'https://172.16.0.1/hooks',
    'https://192.168.1.10:8443/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/hooks',
    'https://[::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[fd00::1]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
  ];
  it.each(forbidden)('refuses %s with 400 webhook_url_rejected', async (url) => {
    const admin = await h.signedIn();
    const response = await admin.request('POST', HOOKS, { url });
    expectProblem(response, 400, 'webhook_url_rejected');
    expect(response.json<{ detail: string }>().detail).toMatch(/^url: /);
    expect(response.json<{ errors: Array<{ path: string }> }>().errors).toEqual([
      { path: 'url', message: expect.any(String) as string },
    ]);
  });

  it('refuses a forbidden URL on a change too, and keeps the old one', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    const response = await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { url: 'https://10.0.0.1/' });
    expectProblem(response, 400, 'webhook_url_rejected');
    expect((await admin.request('GET', HOOKS)).json()).toEqual({ data: [webhook] });
  });

  it('accepts a host name whether or not it resolves, and a public address', async () => {
    const admin = await h.signedIn();
    await addWebhook(admin, { url: 'https://does-not-resolve.invalid/hooks' });
    await addWebhook(admin, { url: 'https://93.184.215.14/hooks' });
    await addWebhook(admin, { url: 'https://[2606:4700::6810:84e5]/hooks' });
  });

  it('refuses an unknown event type and an empty event list with 400 naming events', async () => {
    const admin = await h.signedIn();
    for (const events of [['api_key.created', 'api_key.exploded'], [], 'api_key.created']) {
      const response = await admin.request('POST', HOOKS, { url: PUBLIC_URL, events });
      expectProblem(response, 400, 'invalid_request');
      expect(fieldsOf(response).some((path) => path.startsWith('events'))).toBe(true);
    }
  });

  it('refuses unknown fields, an over-long description and an empty change with 400', async () => {
    const admin = await h.signedIn();
    const extra = await admin.request('POST', HOOKS, { url: PUBLIC_URL, secret: 'whsec_mine' });
    expectProblem(extra, 400, 'invalid_request');
    const long = await admin.request('POST', HOOKS, { url: PUBLIC_URL, description: 'x'.repeat(201) });
    expectProblem(long, 400, 'invalid_request');
    expect(fieldsOf(long)).toContain('description');
    const { webhook } = await addWebhook(admin);
    expectProblem(await admin.request('PATCH', `${HOOKS}/${webhook.id}`, {}), 400, 'invalid_request');
    const badEnabled = await admin.request('PATCH', `${HOOKS}/${webhook.id}`, { enabled: 'yes' });
    expectProblem(badEnabled, 400, 'invalid_request');
    expect(fieldsOf(badEnabled)).toContain('enabled');
  });

  it('refuses the 11th endpoint with 409 webhook_limit_reached, and allows one again after a delete', async () => {
    const admin = await h.signedIn();
    const made = [];
    for (let n = 0; n < 10; n++) made.push(await addWebhook(admin, { url: `https://hooks.example.com/${n}` }));
    expectProblem(await admin.request('POST', HOOKS, { url: PUBLIC_URL }), 409, 'webhook_limit_reached');
    expect((await admin.request('GET', HOOKS)).json<{ data: unknown[] }>().data).toHaveLength(10);
    // Another tenant's count is its own.
    await addWebhook(await h.signedIn());
    await admin.request('DELETE', `${HOOKS}/${made[0]!.webhook.id}`);
    await addWebhook(admin);
  });

  it('refuses a malformed deliveries cursor or limit with 400 naming it', async () => {
    const admin = await h.signedIn();
    const { webhook } = await addWebhook(admin);
    const cursor = await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries?cursor=forged.cursor`);
    expectProblem(cursor, 400, 'invalid_request');
    expect(fieldsOf(cursor)).toContain('cursor');
    const limit = await admin.request('GET', `${HOOKS}/${webhook.id}/deliveries?limit=0`);
    expectProblem(limit, 400, 'invalid_request');
    expect(fieldsOf(limit)).toContain('limit');
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE=1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { webhookAllowPrivate: true } });
  });
  afterAll(async () => h.close());

  it('accepts http: and loopback or private addresses, for development and tests', async () => {
    const admin = await h.signedIn();
    for (const url of ['http://127.0.0.1:9999/hooks', 'http://localhost/hooks', 'https://10.0.0.1/', 'http://[::1]/']) {
      await addWebhook(admin, { url });
    }
  });

  it('still refuses a credentialed or non-http(s) URL with 400 invalid_request', async () => {
    const admin = await h.signedIn();
    for (const url of ['http://u:p@127.0.0.1/', 'file:///etc/passwd']) {
      const response = await admin.request('POST', HOOKS, { url });
      expectProblem(response, 400, 'invalid_request');
      expect(fieldsOf(response)).toContain('url');
    }
  });
});
