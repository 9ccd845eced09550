/** The user's second factors as a session needs them: which methods they can answer with. */
export type FactorFlags = { totp: boolean; passkey: boolean; recoveryCodes: boolean };

export const hasSecondFactor = (flags: FactorFlags): boolean => flags.totp || flags.passkey;

/** The methods a user can answer the second-factor step with, in the order the page offers them. */
export function secondFactorMethods(flags: FactorFlags): Array<'totp' | 'passkey' | 'recovery_code'> {
  if (!hasSecondFactor(flags)) return [];
  return [
    ...(flags.totp ? (['totp'] as const) : []),
    ...(flags.passkey ? (['passkey'] as const) : []),
    ...(flags.recoveryCodes ? (['recovery_code'] as const) : []),
  ];
}
