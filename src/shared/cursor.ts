import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidRequestError } from './errors.ts';

/**
 * Opaque, tamper-evident page cursors: base64url JSON plus an HMAC. A cursor that was altered,
 * truncated or made for other filters is a 400, never a surprising page.
 */
export class CursorCodec {
  private readonly secret: string;
  constructor(secret: string) {
    this.secret = secret;
  }

  encode(position: unknown, scope: string): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${body}.${this.sign(body, scope)}`;
  }

  decode<T>(cursor: string, scope: string, isValid: (value: unknown) => value is T): T {
    const [body, signature, extra] = cursor.split('.');
    if (body && signature && extra === undefined) {
      const expected = Buffer.from(this.sign(body, scope));
      const given = Buffer.from(signature);
      if (expected.length === given.length && timingSafeEqual(expected, given)) {
        try {
          const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
          if (isValid(value)) return value;
        } catch {
          // fall through to the one error below
        }
      }
    }
    throw InvalidRequestError.field('cursor', 'The cursor is not valid for this query; start again without it.');
  }

  private sign(body: string, scope: string): string {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(body).digest('base64url').slice(0, 22);
  }
}
