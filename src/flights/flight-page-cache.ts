import { LRUCache } from 'lru-cache';
import type { FlightPage } from './flight-schemas.ts';

/**
 * Pages of flights as last read, for the embedded engine. PGlite runs each query in this
 * process's own thread, so under load every page read holds up every other request; a page read
 * once is kept until a write to its tenant's flights. That is exact only where every writer is
 * this process (PGlite: the data directory is locked to it, and the CLI writes through the
 * server's admin socket), so PostgreSQL mode, where other instances write, does not use it.
 *
 * Exactness: each tenant's pages carry its write version. A write bumps the version before and
 * after it runs, so a page read during a write is never kept, and pages read before it are
 * never found again (they age out of the LRU).
 */
export class FlightPageCache {
  private readonly pages: LRUCache<string, FlightPage>;
  private readonly versions = new Map<string, number>();

  constructor(maxPages: number) {
    this.pages = new LRUCache({ max: maxPages });
  }

  /** The tenant's write version now: pass it back to `fill` with the page read after asking. */
  version(tenantId: string): number {
    return this.versions.get(tenantId) ?? 0;
  }

  get(tenantId: string, query: string): FlightPage | undefined {
    return this.pages.get(this.keyOf(tenantId, this.version(tenantId), query));
  }

  /** Keeps a page, unless the tenant's flights were written since `version` was taken. */
  fill(tenantId: string, query: string, page: FlightPage, version: number): void {
    if (this.version(tenantId) === version) this.pages.set(this.keyOf(tenantId, version, query), page);
  }

  /** A write to the tenant's flights starts or ends. */
  changed(tenantId: string): void {
    this.versions.set(tenantId, this.version(tenantId) + 1);
  }

  private keyOf(tenantId: string, version: number, query: string): string {
    return `${tenantId}\u0000${version}\u0000${query}`;
  }
}
