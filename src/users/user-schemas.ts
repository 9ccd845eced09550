import { z } from 'zod';
import { ROLES } from '../shared/roles.ts';
import { tenantRefSchema } from '../shared/tenant-ref.ts';

/** The user and session contract as data (validation, serialisation, the back office's types). */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.enum(ROLES)),
  tenant: tenantRefSchema,
});
export type UserView = z.infer<typeof userSchema>;

export const userListSchema = z.object({ data: z.array(userSchema) });

export const signInBodySchema = z.strictObject({ email: z.string().max(320), password: z.string().max(1000) });

export const sessionSchema = z.object({ user: userSchema, csrf_token: z.string() });
export type SignedIn = z.infer<typeof sessionSchema>;

export const createUserBodySchema = z.strictObject({
  email: z.string(),
  name: z.string(),
  password: z.string(),
  roles: z.array(z.string()),
});
export type NewUser = z.infer<typeof createUserBodySchema>;

export const updateUserBodySchema = z.strictObject({
  name: z.string().optional(),
  password: z.string().optional(),
  roles: z.array(z.string()).optional(),
});
export type UserChanges = z.infer<typeof updateUserBodySchema>;
