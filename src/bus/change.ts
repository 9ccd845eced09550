/**
 * What a write tells every instance: a key, a user (a key's creator), a tenant (its authority)
 * changed, or "forget everything". Receivers drop what they cached about it.
 */
export type KeyChange =
  { type: 'key'; id: string } | { type: 'user'; id: string } | { type: 'tenant'; id: string } | { type: 'all' };
