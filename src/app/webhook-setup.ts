import type { Config } from '../config.ts';
import type { Database } from '../db/handle.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import type { Clock } from '../shared/clock.ts';
import { DeliveryWorker } from '../webhooks/delivery-worker.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import { loadSealingKey } from '../webhooks/sealing-key.ts';

export type WebhookDeliveryOptions = {
  clock: Clock;
  onError: (error: unknown) => void;
  /** The sealing key's warning; kept in `startupWarnings` for the server's log by default. */
  onWarning?: ((message: string) => void) | undefined;
  resolver?: Resolver | undefined;
};

/** The webhook side of the composition root: the secret box and the delivery worker, from config. */
export async function webhookDelivery(config: Config, database: Database, options: WebhookDeliveryOptions) {
  const startupWarnings: string[] = [];
  const secrets = await loadSealingKey({
    secretKey: config.secretKey,
    dataDir: config.dataDir,
    databaseKind: database.kind,
    storedKey: () => sharedSecret(database.db, 'webhook_sealing_key'),
    warn: options.onWarning ?? ((message) => startupWarnings.push(message)),
  });
  const worker = new DeliveryWorker({
    db: database.db,
    secrets,
    retryScheduleMs: config.webhookRetryScheduleMs,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivate: config.webhookAllowPrivate,
    clock: options.clock,
    onError: options.onError,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  return { secrets, worker, startupWarnings };
}
