// One definition of every payload: the types come from the schemas and views the server uses.
import type { z } from 'zod';
import type {
  ApiKeyView,
  AuditEventView,
  createKeyBodySchema,
  createUserBodySchema,
  KeyAuthority,
  problemSchema,
  Role,
  updateUserBodySchema,
  userSchema,
} from '@contracts';

export type ApiKey = ApiKeyView;
export type { KeyAuthority, Role };
export type User = z.infer<typeof userSchema>;
export type Problem = z.infer<typeof problemSchema>;
export type FieldError = NonNullable<Problem['errors']>[number];
export type AuditEvent = AuditEventView;

export type Session = { user: User; csrf_token: string };
export type KeyList = { data: ApiKey[]; authority: KeyAuthority };
export type CreateKeyBody = z.infer<typeof createKeyBodySchema>;
export type CreatedKey = { api_key: ApiKey; secret: string };
export type AuditPage = { data: AuditEvent[]; next_cursor: string | null };
export type CreateUserBody = z.infer<typeof createUserBodySchema>;
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;
