import { z } from 'zod';
import type { Services } from '../app/services.ts';
import { generateFlights } from '../flights/flight-seeder.ts';
import type { KeyPolicy } from '../keys/policy/key-policy.ts';
import { SYSTEM_ACTOR } from '../shared/actor.ts';
import type { DomainMoved } from '../sso/sso-admin.ts';
import { InvalidRequestError } from '../shared/errors.ts';
import type { SignInSettings } from '../tenants/sign-in-settings-schemas.ts';
import { toTenantView, type TenantView } from '../tenants/tenant-service.ts';
import type { UserView } from '../users/user-schemas.ts';

/**
 * What the CLI can do, as plain data in and out. Run in-process against the database, or sent
 * to a running server over its admin socket (embedded mode, where one process owns the data).
 */
export const operationInputs = {
  migrate: z.object({}),
  createTenant: z.object({
    name: z.string(),
    slug: z.string().optional(),
    authority: z.enum(['creator', 'system']).optional(),
  }),
  setAuthority: z.object({ tenant: z.string(), authority: z.enum(['creator', 'system']) }),
  createUser: z.object({
    tenant: z.string(),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    password: z.string(),
  }),
  setRoles: z.object({ email: z.string(), roles: z.array(z.string()) }),
  deleteUser: z.object({ email: z.string() }),
  resetSecondFactors: z.object({ email: z.string() }),
  seedFlights: z.object({ tenant: z.string(), count: z.number().int().min(1).max(100_000) }),
  showKeyPolicy: z.object({ tenant: z.string() }),
  // The change itself is checked by KeyPolicyService, whoever calls it.
  setKeyPolicy: z.object({ tenant: z.string(), change: z.record(z.string(), z.unknown()) }),
  setPasswordSignIn: z.object({ tenant: z.string(), enabled: z.boolean() }),
  moveSsoDomain: z.object({ domain: z.string(), from: z.string(), to: z.string().optional() }),
};

export type OperationName = keyof typeof operationInputs;
export type OperationInput<N extends OperationName> = z.infer<(typeof operationInputs)[N]>;

export type AdminOperations = {
  migrate(input: OperationInput<'migrate'>): Promise<{ migrated: true }>;
  createTenant(input: OperationInput<'createTenant'>): Promise<TenantView>;
  setAuthority(input: OperationInput<'setAuthority'>): Promise<TenantView>;
  createUser(input: OperationInput<'createUser'>): Promise<UserView>;
  setRoles(input: OperationInput<'setRoles'>): Promise<UserView>;
  deleteUser(input: OperationInput<'deleteUser'>): Promise<{ deleted: string }>;
  resetSecondFactors(input: OperationInput<'resetSecondFactors'>): Promise<{ reset: string }>;
  seedFlights(input: OperationInput<'seedFlights'>): Promise<{ tenant: string; inserted: number }>;
  showKeyPolicy(input: OperationInput<'showKeyPolicy'>): Promise<KeyPolicy>;
  setKeyPolicy(input: OperationInput<'setKeyPolicy'>): Promise<KeyPolicy>;
  setPasswordSignIn(input: OperationInput<'setPasswordSignIn'>): Promise<SignInSettings>;
  moveSsoDomain(input: OperationInput<'moveSsoDomain'>): Promise<DomainMoved>;
};

/**
 * The operations over this process's services; every change goes through the same services as
 * HTTP. Whoever reaches them (the CLI, the admin socket in the data directory) is the system.
 */
export function localOperations(services: Services): AdminOperations {
  return {
    // Opening the database already applied every migration.
    migrate: () => Promise.resolve({ migrated: true as const }),
    createTenant: (input) => services.accounts.tenants.create(SYSTEM_ACTOR, input),
    setAuthority: (input) => services.accounts.tenants.setAuthority(SYSTEM_ACTOR, input.tenant, input.authority),
    createUser: async (input) => {
      const tenant = await services.accounts.tenants.requireBySlug(input.tenant);
      return services.accounts.users.create(SYSTEM_ACTOR, tenant.id, input);
    },
    setRoles: async (input) => {
      const user = await services.accounts.users.requireByEmail(input.email);
      return services.accounts.users.update(SYSTEM_ACTOR, user.tenantId, user.id, { roles: input.roles });
    },
    deleteUser: async (input) => {
      const user = await services.accounts.users.requireByEmail(input.email);
      await services.accounts.users.delete(SYSTEM_ACTOR, user.tenantId, user.id);
      return { deleted: user.email };
    },
    resetSecondFactors: async (input) => {
      const user = await services.accounts.users.requireByEmail(input.email);
      await services.signIn.secondFactors.resetForUser(SYSTEM_ACTOR, user.tenantId, user.id);
      return { reset: user.email };
    },
    seedFlights: async (input) => {
      const tenant = await services.accounts.tenants.requireBySlug(input.tenant);
      const rows = generateFlights(tenant.id, input.count, services.clock.now(), services.clock.nowMs() & 0xffff);
      return { tenant: toTenantView(tenant).slug, inserted: await services.flights.seed(SYSTEM_ACTOR, rows) };
    },
    showKeyPolicy: async (input) => {
      const tenant = await services.accounts.tenants.requireBySlug(input.tenant);
      return services.keys.policies.get(SYSTEM_ACTOR, tenant.id);
    },
    setKeyPolicy: async (input) => {
      const tenant = await services.accounts.tenants.requireBySlug(input.tenant);
      return services.keys.policies.update(SYSTEM_ACTOR, tenant.id, input.change);
    },
    // The way back in when the identity provider is down and passwords are off.
    setPasswordSignIn: (input) =>
      services.signIn.settings.updateAsSystem(SYSTEM_ACTOR, input.tenant, { password_sign_in: input.enabled }),
    moveSsoDomain: (input) => services.signIn.ssoAdmin.moveDomain(SYSTEM_ACTOR, input),
  };
}

export function parseOperation<N extends OperationName>(name: N, input: unknown): OperationInput<N> {
  const parsed = operationInputs[name].safeParse(input);
  if (!parsed.success) {
    throw new InvalidRequestError(
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || 'input', message: issue.message })),
    );
  }
  return parsed.data as OperationInput<N>;
}
