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

/** A user as the users list shows them: whether they hold a second factor too. */
export const userListItemSchema = userSchema.extend({ second_factor: z.boolean() });
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListSchema = z.object({ data: z.array(userListItemSchema) });

export const createUserBodySchema = z.strictObject({
  email: z.string(),
  name: z.string(),
  /** Omitted: the user signs in through the tenant's identity provider only. */
  password: z.string().optional(),
  roles: z.array(z.string()),
});
export type NewUser = z.infer<typeof createUserBodySchema>;

export const updateUserBodySchema = z.strictObject({
  name: z.string().optional(),
  password: z.string().optional(),
  roles: z.array(z.string()).optional(),
});
export type UserChanges = z.infer<typeof updateUserBodySchema>;

export const changePasswordBodySchema = z.strictObject({
  current_password: z.string().max(1000),
  new_password: z.string().max(1000),
});
