// The server's contracts the back office (web/) builds on, reached there as `@contracts`.
// Types only, so type-checking ties the web to the server while no server code is bundled;
// `permissionsOf` below is the one exception (see its comment).
export type { ApiKeyView } from './keys/key-service.ts';
export type { KeyAuthority } from './keys/principal.ts';
export type { AuditEventView } from './audit/audit-service.ts';
export type { Permission, Role } from './users/roles.ts';
// Schemas as types only (`typeof schema` for z.infer); their runtime values stay on the server.
export type { createKeyBodySchema, createUserBodySchema, problemSchema, updateUserBodySchema, userSchema } from './http/schemas.ts';

// The role → permission table, which the back office uses to show only the pages a user may open
// (the server checks every call regardless). A value, not a type: a pure module without imports,
// bundled so the table has one definition. It goes once the session response lists permissions.
export { permissionsOf } from './users/roles.ts';
