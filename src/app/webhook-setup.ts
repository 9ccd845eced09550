import type { AuditService } from '../audit/audit-service.ts';
import type { Config } from '../config.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import type { OutboxWriter } from '../webhooks/outbox.ts';
import { WebhookRepository } from '../webhooks/webhook-repository.ts';
import { WebhookService } from '../webhooks/webhook-service.ts';
import type { WebhookServices } from './service-types.ts';
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

export type WebhookEndpointDeps = {
  config: Config;
  clock: Clock;
  database: Database;
  uow: UnitOfWork;
  audit: AuditService;
  cursors: CursorCodec;
  outbox: OutboxWriter;
  delivery: Awaited<ReturnType<typeof webhookDelivery>>;
};

/** Webhook endpoints over the delivery side: a change to one pokes the worker. */
export function buildWebhooks({ config, clock, database, uow, audit, cursors, outbox, delivery }: WebhookEndpointDeps) {
  const webhooks: WebhookServices = {
    endpoints: new WebhookService({
      uow,
      repository: new WebhookRepository(database.db),
      audit,
      clock,
      cursors,
      secrets: delivery.secrets,
      recordEvent: outbox,
      poke: () => delivery.worker.poke(),
      allowPrivate: config.webhookAllowPrivate,
    }),
    secrets: delivery.secrets,
    startupWarnings: delivery.startupWarnings,
  };
  return webhooks;
}
