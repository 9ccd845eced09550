import { and, eq, inArray, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/handle.ts';
import { tenants, users } from '../db/schema.ts';
import { ssoConfigurations, ssoDomains, ssoFlows, ssoIdentities } from '../db/sso-tables.ts';
import { ConflictError } from '../shared/errors.ts';
import { domainOf } from './sso-roles.ts';

export type SsoConfigRow = typeof ssoConfigurations.$inferSelect;
export type SsoFlowRow = typeof ssoFlows.$inferSelect;
export type TenantWithSso = { tenant: { id: string; slug: string; name: string }; config: SsoConfigRow };

/** The only place with SQL for single sign-on: providers, identities and flows in progress. */
export class SsoRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async configOf(tenantId: string, tx: Db = this.db): Promise<SsoConfigRow | undefined> {
    const [row] = await tx.select().from(ssoConfigurations).where(eq(ssoConfigurations.tenantId, tenantId));
    return row;
  }

  /** Saves the provider and claims its domains; a domain another tenant holds is 409 `domain_taken`. */
  async saveConfig(tx: Db, values: typeof ssoConfigurations.$inferInsert): Promise<void> {
    await tx
      .insert(ssoConfigurations)
      .values(values)
      .onConflictDoUpdate({ target: ssoConfigurations.tenantId, set: { ...values, updatedAt: sql`now()` } });
    await this.claimDomains(tx, values.tenantId, values.allowedDomains);
  }

  /**
   * Makes `sso_domains` say exactly these domains are the tenant's. The primary key decides a race:
   * of two tenants inserting one domain at once, the second waits for the first to commit, inserts
   * nothing, and then finds the domain held by another tenant.
   */
  private async claimDomains(tx: Db, tenantId: string, domains: string[]): Promise<void> {
    const mine = eq(ssoDomains.tenantId, tenantId);
    await tx.delete(ssoDomains).where(domains.length === 0 ? mine : and(mine, notInArray(ssoDomains.domain, domains)));
    if (domains.length === 0) return;
    await tx
      .insert(ssoDomains)
      .values(domains.map((domain) => ({ domain, tenantId })))
      .onConflictDoNothing();
    const taken = await tx
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(and(inArray(ssoDomains.domain, domains), ne(ssoDomains.tenantId, tenantId)));
    if (taken.length > 0) {
      const names = taken.map((row) => row.domain).sort();
      throw new ConflictError('domain_taken', `Another tenant's single sign-on allows ${names.join(', ')}.`);
    }
  }

  /** The tenant that holds a domain, if any. */
  async holderOf(domain: string, tx: Db = this.db): Promise<string | undefined> {
    const [row] = await tx
      .select({ tenantId: ssoDomains.tenantId })
      .from(ssoDomains)
      .where(eq(ssoDomains.domain, domain));
    return row?.tenantId;
  }

  async deleteConfig(tx: Db, tenantId: string): Promise<void> {
    await tx.delete(ssoConfigurations).where(eq(ssoConfigurations.tenantId, tenantId));
  }

  async bySlug(slug: string): Promise<TenantWithSso | undefined> {
    const [row] = await this.withTenant().where(eq(tenants.slug, slug.toLowerCase()));
    return row;
  }

  async byId(tenantId: string): Promise<TenantWithSso | undefined> {
    const [row] = await this.withTenant().where(eq(tenants.id, tenantId));
    return row;
  }

  /** Tenants whose provider allows this e-mail domain; the caller needs exactly one. */
  async byDomain(domain: string): Promise<TenantWithSso[]> {
    return this.withTenant()
      .where(sql`${domain} = any(${ssoConfigurations.allowedDomains})`)
      .limit(2);
  }

  /** The tenant a person names: its slug, or an e-mail whose domain exactly one tenant allows. */
  async tenantFor(request: { org?: string | undefined; email?: string | undefined }) {
    if (request.org) return this.bySlug(request.org.trim());
    const domain = request.email ? domainOf(request.email.trim()) : undefined;
    // Two organisations allowing one domain: the e-mail does not say which; the slug must.
    const found = domain ? await this.byDomain(domain) : [];
    return found.length === 1 ? found[0] : undefined;
  }

  async userOfIdentity(issuer: string, subject: string, tx: Db = this.db): Promise<string | undefined> {
    const [row] = await tx
      .select({ userId: ssoIdentities.userId })
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)));
    return row?.userId;
  }

  async identitiesOf(userId: string, tx: Db = this.db): Promise<Array<{ issuer: string; subject: string }>> {
    return tx
      .select({ issuer: ssoIdentities.issuer, subject: ssoIdentities.subject })
      .from(ssoIdentities)
      .where(eq(ssoIdentities.userId, userId));
  }

  /** The tenant's user with this e-mail, for the audit trail of a refusal. */
  async userInTenant(tenantId: string, email: string): Promise<{ id: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
    return row;
  }

  async link(tx: Db, issuer: string, subject: string, userId: string): Promise<void> {
    await tx.insert(ssoIdentities).values({ issuer, subject, userId }).onConflictDoNothing();
  }

  /** Removes every identity linked to the user; returns the issuers they were of. */
  async unlinkAll(tx: Db, userId: string): Promise<string[]> {
    const removed = await tx
      .delete(ssoIdentities)
      .where(eq(ssoIdentities.userId, userId))
      .returning({ issuer: ssoIdentities.issuer });
    return [...new Set(removed.map((row) => row.issuer))].sort();
  }

  async insertFlow(values: SsoFlowRow): Promise<void> {
    await this.db.insert(ssoFlows).values(values);
  }

  /**
   * Marks the flow of a state used and returns it; of two callbacks with one state, one takes it.
   * The other (a replay) gets the row as `replayed`, so the refusal can be audited to its tenant.
   */
  async takeFlow(stateDigest: string, now: Date): Promise<{ flow: SsoFlowRow; replayed: boolean } | undefined> {
    const [taken] = await this.db
      .update(ssoFlows)
      .set({ usedAt: now })
      .where(and(eq(ssoFlows.stateDigest, stateDigest), isNull(ssoFlows.usedAt)))
      .returning();
    if (taken) return { flow: taken, replayed: false };
    const [seen] = await this.db.select().from(ssoFlows).where(eq(ssoFlows.stateDigest, stateDigest));
    return seen ? { flow: seen, replayed: true } : undefined;
  }

  async deleteExpiredFlows(now: Date): Promise<void> {
    await this.db.delete(ssoFlows).where(lte(ssoFlows.expiresAt, now));
  }

  private withTenant() {
    return this.db
      .select({ tenant: { id: tenants.id, slug: tenants.slug, name: tenants.name }, config: ssoConfigurations })
      .from(ssoConfigurations)
      .innerJoin(tenants, eq(tenants.id, ssoConfigurations.tenantId))
      .$dynamic();
  }
}
