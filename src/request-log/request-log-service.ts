import { requirePermission, type UserActor } from '../shared/actor.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import type { LogPosition } from './log-rows.ts';
import type { RequestLogRepository } from './request-log-repository.ts';
import type { RequestLogEntry, RequestLogFilter, RequestLogPage } from './request-log-schemas.ts';

/** Entries per read of an export: memory holds one such batch, however long the export. */
const EXPORT_BATCH = 1_000;

const isPosition = (value: unknown): value is LogPosition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LogPosition).at === 'string' &&
  typeof (value as LogPosition).id === 'string' &&
  !Number.isNaN(Date.parse((value as LogPosition).at));

export type RequestLogServiceOptions = {
  repository: RequestLogRepository;
  cursors: CursorCodec;
};

/** Reads a tenant's request log for the back office (docs/request-log.md); needs `api_keys:manage`. */
export class RequestLogService {
  private readonly options: RequestLogServiceOptions;
  constructor(options: RequestLogServiceOptions) {
    this.options = options;
  }

  /** A page, newest first; the cursor is bound to the tenant and the filters it was made for. */
  async list(actor: UserActor, filter: RequestLogFilter, limit: number, cursor?: string): Promise<RequestLogPage> {
    requirePermission(actor, 'api_keys:manage');
    const scope = scopeOf(actor.tenantId, filter);
    const before = cursor === undefined ? undefined : this.options.cursors.decode(cursor, scope, isPosition);
    const rows = await this.options.repository.page(actor.tenantId, filter, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      data: page,
      next_cursor:
        rows.length > limit && last ? this.options.cursors.encode({ at: last.at, id: last.id }, scope) : null,
    };
  }

  /**
   * Every matching entry, newest first, a batch at a time by the same keyset as the pages: memory
   * holds one batch whatever the export's length, and no transaction stays open while the client reads.
   * The permission is checked at the call, before any entry, so a refusal is an ordinary 403.
   */
  export(actor: UserActor, filter: RequestLogFilter): AsyncIterable<RequestLogEntry> {
    requirePermission(actor, 'api_keys:manage');
    const { repository } = this.options;
    const tenantId = actor.tenantId;
    return (async function* () {
      let before: LogPosition | undefined;
      for (;;) {
        const rows = await repository.page(tenantId, filter, EXPORT_BATCH, before);
        yield* rows;
        const last = rows.at(-1);
        if (rows.length < EXPORT_BATCH || !last) return;
        before = { at: last.at, id: last.id };
      }
    })();
  }
}

function scopeOf(tenantId: string, filter: RequestLogFilter): string {
  const { key, outcome, status, address, route, from, to } = filter;
  return `request-log:${tenantId}:${JSON.stringify([key, outcome, status, address, route, from, to])}`;
}
