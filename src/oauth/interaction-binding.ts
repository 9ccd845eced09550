import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONSENT_API_PATH } from './oauth-urls.ts';

/** The cookie that ties an authorization request to the browser that started it. */
export const BINDING_COOKIE = 'airkey_oauth_interaction';

/**
 * A consent is answered only from the browser the app sent to the provider. Without this, whoever
 * starts an authorization (with their own app and redirect URI) could send its consent link to a
 * signed-in person, have them approve it, and resume the request in their own browser to collect
 * the code for that person's grant. The provider's own interaction cookie is scoped to the page's
 * path, which the back office's API never sees; this one (an HMAC of the request's uid) is scoped
 * to that request's API path.
 */
export class InteractionBinding {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('airkey oauth interaction binding').digest();
  }

  cookie(uid: string): { name: string; value: string; path: string } {
    return { name: BINDING_COOKIE, value: this.mac(uid), path: `${CONSENT_API_PATH}/${uid}` };
  }

  holds(uid: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.mac(uid));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(uid: string): string {
    return createHmac('sha256', this.key).update(uid).digest('base64url');
  }
}
