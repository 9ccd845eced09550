import { z } from 'zod';
import { InvalidRequestError } from '../../shared/errors.ts';
import type { KeyPolicy } from './key-policy.ts';

/** `KeyPolicy` as data: validates `PATCH /backoffice/api/key-policy` and the CLI, types the back office. */
const days = (what: string) =>
  z
    .number({ message: 'Use a whole number of days from 1 to 3650, or null.' })
    .int('Use a whole number of days from 1 to 3650, or null.')
    .min(1, 'Use a whole number of days from 1 to 3650, or null.')
    .max(3650, 'Use a whole number of days from 1 to 3650, or null.')
    .nullable()
    .describe(`${what}; null: none`);

export const keyPolicySchema = z.object({
  max_lifetime_days: days('The longest a new key may live, in days (1–3650)'),
  require_expiry: z.boolean().describe('Every new key needs an expires_at'),
  disable_unused_after_days: days('Keys unused this many days (1–3650) are disabled'),
  require_allowed_ips: z.boolean().describe('Every new key needs allowed_ips'),
}) satisfies z.ZodType<KeyPolicy>;

/** A change: the fields given replace the stored ones; at least one is needed. */
export const updateKeyPolicyBodySchema = z.strictObject({
  max_lifetime_days: days('The longest a new key may live, in days (1–3650)').optional(),
  require_expiry: z.boolean().optional(),
  disable_unused_after_days: days('Keys unused this many days (1–3650) are disabled').optional(),
  require_allowed_ips: z.boolean().optional(),
});
export type KeyPolicyChange = z.infer<typeof updateKeyPolicyBodySchema>;

/** The same checks the HTTP schema makes, for callers that bypass it (the CLI, the admin socket). */
export function validPolicyChange(input: unknown): KeyPolicyChange {
  const parsed = updateKeyPolicyBodySchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidRequestError(
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || 'body', message: issue.message })),
    );
  }
  if (Object.values(parsed.data).every((value) => value === undefined)) {
    throw InvalidRequestError.field(
      'body',
      'Give at least one of max_lifetime_days, require_expiry, disable_unused_after_days, require_allowed_ips.',
    );
  }
  return parsed.data;
}
