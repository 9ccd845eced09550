import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../shared/event-types.ts';
import { newWebhookSecret, type SecretBox } from './secret-box.ts';
import { checkWebhookUrl } from './url-rules.ts';
import type { DeliveryPosition, WebhookChanges, WebhookRepository, WebhookRow } from './webhook-repository.ts';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  DeliveryPage,
  RotatedSecret,
  TestDelivery,
  UpdateWebhookInput,
  WebhookList,
  WebhookView,
} from './webhook-schemas.ts';
import { toDeliveryView, toWebhookView, webhookTarget } from './webhook-view.ts';

/** The outbox's writer (src/webhooks/outbox.ts eventOutbox): returns the delivery ids it queued. */
export type RecordEvent = (
  tx: Db,
  event: { tenantId: string; type: WebhookEventType; data: Record<string, unknown> },
  onlyWebhookId?: string,
) => Promise<string[]>;

export type WebhookServiceOptions = {
  uow: UnitOfWork;
  repository: WebhookRepository;
  audit: AuditService;
  clock: Clock;
  cursors: CursorCodec;
  /** Seals secrets with a key kept outside the database. */
  secrets: SecretBox;
  recordEvent: RecordEvent;
  /** Asks the delivery worker to look for due deliveries now. */
  poke: () => void;
  allowPrivate: boolean;
  maxPerTenant?: number;
};

/** How long the secret before a rotation keeps signing, so receivers can switch over. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;
const MAX_PER_TENANT = 10;

const isPosition = (value: unknown): value is DeliveryPosition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as DeliveryPosition).at === 'string' &&
  typeof (value as DeliveryPosition).id === 'string';

/**
 * A tenant's webhook endpoints (docs/webhooks.md): every method checks `api_keys:manage` itself,
 * every change is audited in its own transaction, and a secret leaves only in the answer that made it.
 */
export class WebhookService {
  private readonly options: WebhookServiceOptions;
  constructor(options: WebhookServiceOptions) {
    this.options = options;
  }

  async list(actor: UserActor): Promise<WebhookList> {
    requirePermission(actor, 'api_keys:manage');
    const rows = await this.options.repository.listForTenant(actor.tenantId);
    return { data: rows.map(toWebhookView) };
  }

  async create(actor: UserActor, input: CreateWebhookInput): Promise<CreatedWebhook> {
    requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, this.options.clock);
    const { repository, audit } = this.options;
    const url = this.checkedUrl(input.url);
    const secret = newWebhookSecret();
    const row = await this.options.uow.inTransaction(async (tx) => {
      await repository.lockTenant(tx, actor.tenantId);
      const limit = this.options.maxPerTenant ?? MAX_PER_TENANT;
      if ((await repository.countForTenant(tx, actor.tenantId)) >= limit) {
        throw new ConflictError(
          'webhook_limit_reached',
          `This tenant already has ${limit} webhook endpoints, the most allowed. Delete one first.`,
        );
      }
      const inserted = await repository.insert(tx, {
        tenantId: actor.tenantId,
        url,
        description: cleanDescription(input.description),
        events: input.events ? unique(input.events) : [...WEBHOOK_EVENT_TYPES],
        secretSealed: this.options.secrets.seal(secret),
        createdAt: this.options.clock.now(),
      });
      await audit.record(tx, actor.tenantId, actor, 'webhook.created', webhookTarget(inserted), {
        events: inserted.events,
      });
      return inserted;
    });
    return { webhook: toWebhookView(row), secret };
  }

  async update(actor: UserActor, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
    requirePermission(actor, 'api_keys:manage');
    const changes: WebhookChanges = {};
    if (input.url !== undefined) changes.url = this.checkedUrl(input.url);
    if (input.events !== undefined) changes.events = unique(input.events);
    if (input.description !== undefined) changes.description = cleanDescription(input.description);
    const row = await this.options.uow.inTransaction(async (tx) => {
      const current = await this.requireWebhook(tx, actor.tenantId, id, true);
      // A new target receives every key event from now on: as sensitive as a new endpoint.
      if (changes.url !== undefined && changes.url !== current.url) requireRecentSignIn(actor, this.options.clock);
      if (input.enabled !== undefined && input.enabled !== current.enabled) {
        changes.enabled = input.enabled;
        changes.disabledReason = input.enabled ? null : 'disabled_by_user';
      }
      const changed = Object.entries(changes).filter(([field, value]) => !sameValue(current, field, value));
      if (changed.length === 0) return current;
      const updated = await this.options.repository.update(tx, current.id, changes);
      await this.options.audit.record(tx, actor.tenantId, actor, 'webhook.updated', webhookTarget(updated), {
        changed: changed.map(([field]) => field),
      });
      return updated;
    });
    return toWebhookView(row);
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    requirePermission(actor, 'api_keys:manage');
    await this.options.uow.inTransaction(async (tx) => {
      const row = await this.requireWebhook(tx, actor.tenantId, id, true);
      await this.options.repository.delete(tx, row.id);
      await this.options.audit.record(tx, actor.tenantId, actor, 'webhook.deleted', webhookTarget(row));
    });
  }

  /** The old secret keeps signing beside the new one for a day, so receivers can switch over. */
  async rotateSecret(actor: UserActor, id: string): Promise<RotatedSecret> {
    requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, this.options.clock);
    const secret = newWebhookSecret();
    await this.options.uow.inTransaction(async (tx) => {
      const row = await this.requireWebhook(tx, actor.tenantId, id, true);
      const until = new Date(this.options.clock.nowMs() + PREVIOUS_SECRET_MS);
      await this.options.repository.setSecret(tx, row.id, this.options.secrets.seal(secret), row.secretSealed, until);
      await this.options.audit.record(tx, actor.tenantId, actor, 'webhook.secret_rotated', webhookTarget(row), {
        previous_valid_until: until.toISOString(),
      });
    });
    return { secret };
  }

  /** A `webhook.test` event for this endpoint alone, through the same outbox as every event. */
  async sendTest(actor: UserActor, id: string): Promise<TestDelivery> {
    requirePermission(actor, 'api_keys:manage');
    const deliveryId = await this.options.uow.inTransaction(async (tx) => {
      const tenant = await this.options.repository.lockTenant(tx, actor.tenantId);
      const row = await this.requireWebhook(tx, actor.tenantId, id);
      if (!row.enabled) {
        throw new ConflictError('webhook_disabled', 'This endpoint is disabled; enable it to send it a test event.');
      }
      const data = {
        tenant,
        actor: { type: 'user', id: actor.id, email: actor.email },
        webhook: { id: row.id, url: row.url },
      };
      const [queued] = await this.options.recordEvent(
        tx,
        { tenantId: actor.tenantId, type: 'webhook.test', data },
        row.id,
      );
      if (!queued) throw new Error('The outbox queued no delivery for an enabled endpoint');
      return queued;
    });
    this.options.poke();
    return { delivery_id: deliveryId };
  }

  /** The endpoint's delivery log, newest first. */
  async deliveries(actor: UserActor, id: string, limit: number, cursor?: string): Promise<DeliveryPage> {
    requirePermission(actor, 'api_keys:manage');
    const { repository, cursors } = this.options;
    const row = await this.requireWebhook(undefined, actor.tenantId, id);
    const scope = `webhook-deliveries:${row.id}`;
    const after = cursor ? cursors.decode(cursor, scope, isPosition) : undefined;
    const rows = await repository.listDeliveries(row.id, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page.map(toDeliveryView),
      next_cursor: rows.length > limit && last ? cursors.encode({ at: last.createdAtText, id: last.id }, scope) : null,
    };
  }

  /** One more attempt now, whatever the delivery's state; the worker makes it off the request path. */
  async retry(actor: UserActor, id: string, deliveryId: string): Promise<void> {
    requirePermission(actor, 'api_keys:manage');
    await this.options.uow.inTransaction(async (tx) => {
      const row = await this.requireWebhook(tx, actor.tenantId, id);
      const delivery = await this.options.repository.findDelivery(tx, row.id, deliveryId);
      if (!delivery) throw new NotFoundError('delivery');
      await this.options.repository.requeueDelivery(tx, delivery.id, this.options.clock.now());
    });
    this.options.poke();
  }

  private checkedUrl(raw: string): string {
    return checkWebhookUrl(raw, { allowPrivate: this.options.allowPrivate });
  }

  // Another tenant's endpoint is "not found", never "forbidden": existence is not revealed.
  private async requireWebhook(
    tx: Db | undefined,
    tenantId: string,
    id: string,
    forUpdate = false,
  ): Promise<WebhookRow> {
    const row = await this.options.repository.findForTenant(tx, tenantId, id, forUpdate);
    if (!row) throw new NotFoundError('webhook');
    return row;
  }
}

function cleanDescription(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  return text ? text : null;
}

function unique(events: readonly WebhookEventType[]): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}

function sameValue(row: WebhookRow, field: string, value: unknown): boolean {
  const current = row[field as keyof WebhookRow];
  return Array.isArray(value) ? JSON.stringify(current) === JSON.stringify(value) : current === value;
}
