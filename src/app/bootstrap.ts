import { randomBytes } from 'node:crypto';
import { generateFlights } from '../flights/flight-seeder.ts';
import { ConfigError } from '../config.ts';
import { lockForTransaction } from '../db/advisory-lock.ts';
import { SYSTEM_ACTOR } from '../shared/actor.ts';
import { passwordProblem } from '../shared/password-rules.ts';
import { TenantRepository } from '../tenants/tenant-repository.ts';
import { hashPassword } from '../users/password.ts';
import { UserRepository } from '../users/user-repository.ts';
import type { ServiceRoot } from './services.ts';

export type FirstStart = { tenantSlug: string; email: string; generatedPassword: string | undefined; flights: number };

const BOOTSTRAP_LOCK_ID = 727_002;
export const DEMO_FLIGHT_COUNT = 2000;

/**
 * On an empty database: the demo tenant "Demo Air", one System Administrator and sample flights.
 * Runs under an advisory lock, so instances starting together create it once. Returns undefined
 * when the database already had tenants.
 */
export async function bootstrapIfEmpty(services: ServiceRoot): Promise<FirstStart | undefined> {
  const { config, clock } = services;
  const tenantRows = new TenantRepository(services.database.db);
  if (await tenantRows.any()) return undefined;
  const generatedPassword = config.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const email = (config.adminEmail ?? 'admin@demo.airkey.test').toLowerCase();
  // A chosen password meets the rule every other password meets (a generated one always does).
  const problem = config.adminPassword ? await passwordProblem(config.adminPassword, email) : null;
  if (problem) throw new ConfigError(`AIRKEY_ADMIN_PASSWORD: ${problem}`);
  const passwordHash = await hashPassword(config.adminPassword ?? generatedPassword!);
  // The demo tenant and its first administrator are written as they are, in one transaction: no
  // actor exists yet to create them through the services, and nothing is audited before anyone is.
  const users = new UserRepository(services.database.db);
  return services.uow.inTransaction(async (tx) => {
    await lockForTransaction(tx, BOOTSTRAP_LOCK_ID);
    if (await tenantRows.any(tx)) return undefined;
    const tenant = await tenantRows.insert(tx, { name: 'Demo Air', slug: 'demo' });
    await users.insert(tx, {
      tenantId: tenant.id,
      email,
      name: 'Demo Administrator',
      passwordHash,
      roles: ['system_administrator'],
    });
    const rows = config.demo ? generateFlights(tenant.id, DEMO_FLIGHT_COUNT, clock.now()) : [];
    await services.flights.seed(SYSTEM_ACTOR, rows, tx);
    return { tenantSlug: tenant.slug, email, generatedPassword, flights: rows.length };
  });
}
