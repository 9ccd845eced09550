/**
 * The server's contracts the back office (web/) uses, in one place: types only, derived from the
 * per-feature zod schemas, so a change to a payload is a type error in the page that reads it.
 * The web imports this file through the `@contracts` alias.
 */
export type { ApiKeyView, CreatedKey, CreateKeyInput, KeyList, Principal } from './keys/key-schemas.ts';
export type { NewUser, SignedIn, UserChanges, UserView } from './users/user-schemas.ts';
export type { AuditEventView, AuditPage } from './audit/audit-schemas.ts';
export type { Problem, FieldError } from './http/problem-types.ts';
export type { KeyAuthority } from './shared/actor.ts';
export type { Permission, Role } from './shared/roles.ts';
