/**
 * What a write tells every instance: a key, a user (a key's creator, a grant's person), a tenant
 * (its authority), an OAuth grant (revoked: its access tokens end) changed, or "forget
 * everything". Receivers drop what they cached about it.
 */
export type KeyChange =
  | { type: 'key'; id: string }
  | { type: 'user'; id: string }
  | { type: 'tenant'; id: string }
  | { type: 'grant'; id: string }
  | { type: 'all' };

// The unit of work (src/db/unit-of-work.ts) publishes changes it does not name: storage imports
// nothing above it. This room tells it what a change is.
declare module '../db/unit-of-work.ts' {
  interface Changes {
    key: KeyChange;
  }
}
