import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';

/** Second factors as data: request bodies, views, and what the back office's types come from. */

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'Expected base64url.');
const extensionResults = z.record(z.string(), z.unknown());

/** What @simplewebauthn/browser's startAuthentication() returns. */
export const authenticationResponseSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: extensionResults,
  authenticatorAttachment: z.string().max(32).optional(),
}) as unknown as z.ZodType<AuthenticationResponseJSON>;

/** What @simplewebauthn/browser's startRegistration() returns. */
export const registrationResponseSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: extensionResults,
  authenticatorAttachment: z.string().max(32).optional(),
}) as unknown as z.ZodType<RegistrationResponseJSON>;

const code = z.string().min(1).max(64);

/** A second factor as the sign-in step and re-authentication take it. */
export const secondFactorProofSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('totp'), code }),
  z.strictObject({ method: z.literal('recovery_code'), code }),
  z.strictObject({ method: z.literal('passkey'), response: authenticationResponseSchema }),
]);

export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauth_uri: z.string() });
export const totpConfirmBodySchema = z.strictObject({ code });
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export const maybeRecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()).nullable() });

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeySchema>;

export const addPasskeyBodySchema = z.strictObject({
  name: z.string().max(1000),
  response: registrationResponseSchema,
});
export const addedPasskeySchema = z.object({ passkey: passkeySchema, recovery_codes: z.array(z.string()).nullable() });

export const secondFactorsSchema = z.object({
  totp: z.boolean(),
  passkeys: z.array(passkeySchema),
  recovery_codes_left: z.number().int(),
});
export type SecondFactorsView = z.infer<typeof secondFactorsSchema>;

/** WebAuthn options exactly as @simplewebauthn/server builds them, for the browser to pass on. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown()) as unknown as z.ZodType<
  PublicKeyCredentialCreationOptionsJSON | PublicKeyCredentialRequestOptionsJSON
>;
