import { z } from 'zod';
import { secondFactorProofSchema } from '../second-factors/second-factor-schemas.ts';
import { userSchema } from '../users/user-schemas.ts';
import { SIGN_IN_METHODS } from './session-rules.ts';

/** The back office's sign-in and session contract as data (docs/sign-in.md). */

export const signInBodySchema = z.strictObject({ email: z.string().max(320), password: z.string().max(1000) });

export const secondFactorMethodSchema = z.enum(['totp', 'passkey', 'recovery_code']);

/** A signed-in session as the page sees it. */
export const sessionSchema = z.object({
  user: userSchema,
  csrf_token: z.string(),
  /** The tenant requires a second factor this user lacks: only enrolling one is open. */
  enrolment_required: z.boolean(),
  /** The user's own second factors: what re-authentication may ask for (empty: the password). */
  second_factor_methods: z.array(secondFactorMethodSchema),
  /** Sensitive actions pass without re-authenticating until this instant. */
  reauthenticated_until: z.string(),
  /** The method that opened or renewed the session: an `sso` one re-authenticates at its provider, having no password to ask. */
  signed_in_with: z.enum(SIGN_IN_METHODS),
});
export type SignedIn = z.infer<typeof sessionSchema>;

/** A password accepted for a user with a second factor: the step that follows. */
export const secondFactorStepSchema = z.object({
  second_factor_required: z.literal(true),
  methods: z.array(secondFactorMethodSchema),
});
export type SecondFactorStep = z.infer<typeof secondFactorStepSchema>;

export const signInResultSchema = z.union([sessionSchema, secondFactorStepSchema]);

export const passkeySignInBodySchema = z.strictObject({
  response: secondFactorProofSchema.options[2].shape.response,
});

/** Re-authentication: the password (for a user without a second factor) or a second factor. */
export const reauthenticateBodySchema = z.union([
  z.strictObject({ password: z.string().max(1000) }),
  secondFactorProofSchema,
]);
export type ReauthenticateBody = z.infer<typeof reauthenticateBodySchema>;

export const sessionListItemSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  address: z.string(),
  user_agent: z.string(),
  current: z.boolean(),
});
export type SessionListItem = z.infer<typeof sessionListItemSchema>;
