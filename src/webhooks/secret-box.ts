import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes, as the Standard Webhooks specification writes secrets. */
export function newWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return `whsec_${random(32).toString('base64')}`;
}

/**
 * Seals webhook secrets with AES-256-GCM under a key that never sits in the database, so a dump of
 * the database alone does not let anyone sign as us. A sealed value is `v1.<iv>.<tag>.<ciphertext>`
 * (base64url); the tag makes a tampered or wrongly keyed value fail loudly instead of signing garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The sealing key must be 32 bytes');
    this.key = key;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
