import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * for each secret, space-separated (two while a rotated-out secret is still honoured). The HMAC
 * key is the secret's bytes: the base64 after `whsec_`.
 */
export function signatureHeader(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
