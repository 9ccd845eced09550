import * as core from './schema.ts';
import { instances, settings } from './instance-tables.ts';
import { quotaHoldings, quotaPeriods, rateLimitWindows } from './rate-limit-tables.ts';
import {
  passkeys,
  pendingSignIns,
  recoveryCodes,
  signInAttempts,
  totpFactors,
  webauthnChallenges,
} from './sign-in-tables.ts';
import { requestLog, requestLogBatches, requestLogBlocks } from './request-log-tables.ts';
import { oauthRecords } from './oauth-tables.ts';
import { ssoConfigurations, ssoFlows, ssoIdentities } from './sso-tables.ts';
import { webhookDeliveries, webhookEvents, webhooks } from './webhook-tables.ts';

/** Every table, as Drizzle's relational query API and the migrations see them. */
export const schema = {
  ...core,
  settings,
  instances,
  rateLimitWindows,
  quotaPeriods,
  quotaHoldings,
  webhooks,
  webhookEvents,
  webhookDeliveries,
  pendingSignIns,
  totpFactors,
  passkeys,
  recoveryCodes,
  webauthnChallenges,
  signInAttempts,
  requestLog,
  requestLogBatches,
  requestLogBlocks,
  ssoConfigurations,
  ssoIdentities,
  ssoFlows,
  oauthRecords,
};
export type Schema = typeof schema;
