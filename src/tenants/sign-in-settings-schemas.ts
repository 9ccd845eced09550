import { z } from 'zod';
import { OAUTH_APPS_SETTINGS } from '../shared/oauth-apps.ts';
import { SECOND_FACTOR_REQUIREMENTS } from '../shared/second-factor-requirement.ts';
import { ssoSettingsInputSchema, ssoSettingsSchema } from './sso-settings-schemas.ts';

/** A tenant's rules for signing in to the back office (docs/sign-in.md (Sign-in settings)). */
export const signInSettingsSchema = z.object({
  second_factor_required: z.enum(SECOND_FACTOR_REQUIREMENTS),
  /** False: password and passkey sign-in are refused; people sign in through the identity provider. */
  password_sign_in: z.boolean(),
  /** The tenant's own identity provider; null while single sign-on is not set up. */
  sso: ssoSettingsSchema.nullable(),
  /** Who may approve an OAuth app for themselves (docs/oauth.md). */
  oauth_apps: z.enum(OAUTH_APPS_SETTINGS),
});
export type SignInSettings = z.infer<typeof signInSettingsSchema>;

export const signInSettingsPatchSchema = z.strictObject({
  second_factor_required: z.enum(SECOND_FACTOR_REQUIREMENTS).optional(),
  password_sign_in: z.boolean().optional(),
  /** The identity provider; null removes it (only while password sign-in is on). */
  sso: ssoSettingsInputSchema.nullable().optional(),
  oauth_apps: z.enum(OAUTH_APPS_SETTINGS).optional(),
});
export type SignInSettingsPatch = z.infer<typeof signInSettingsPatchSchema>;
