// One definition of every payload: the types come from the server's own schemas (src/contracts.ts).
import type {
  ApiKeyView,
  AuditEventView,
  AuditPage,
  CreatedKey,
  CreateKeyInput,
  FieldError,
  KeyAuthority,
  KeyList,
  NewUser,
  Problem,
  Role,
  SignedIn,
  UserChanges,
  UserView,
} from '@contracts';

export type ApiKey = ApiKeyView;
export type User = UserView;
export type AuditEvent = AuditEventView;
export type Session = SignedIn;
export type CreateKeyBody = CreateKeyInput;
export type CreateUserBody = NewUser;
export type UpdateUserBody = UserChanges;
export type { AuditPage, CreatedKey, FieldError, KeyAuthority, KeyList, Problem, Role };
