import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CreatorKeys } from '../keys/lifecycle/creator-keys.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import {
  requireOwnTenant,
  requirePermission,
  requireRecentSignIn,
  type Actor,
  type UserActor,
} from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import {
  ConflictError,
  InvalidCredentialsError,
  InvalidRequestError,
  NotFoundError,
  type FieldError,
} from '../shared/errors.ts';
import { isRole } from '../shared/roles.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { UserRepository, UserWithTenant } from './user-repository.ts';
import {
  checkEmail,
  checkName,
  checkPassword,
  checkRoles,
  guardAdministratorAccount,
  guardAdministratorGrant,
  sameRoles,
} from './user-rules.ts';
import type { NewUser, UserChanges, UserListItem, UserView } from './user-schemas.ts';

export type UserServiceOptions = {
  uow: UnitOfWork;
  users: UserRepository;
  tenants: TenantRepository;
  /** Disables a deleted creator's keys in the deletion's unit of work (the keys feature writes keys). */
  keys: Pick<CreatorKeys, 'disableCreatedBy'>;
  audit: AuditService;
  clock: Clock;
  /** Of these users, those who hold a second factor (the second-factors feature answers). */
  withSecondFactor: (userIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /**
   * Checks a current password as the sign-in door checks one (the sessions feature answers):
   * counted before it is checked, with the door's limits; 429 when they are spent.
   */
  checkCurrentPassword: (user: UserWithTenant, address: string, verify: () => Promise<boolean>) => Promise<boolean>;
};

/**
 * Accounts and roles. Roles decide what a creator-bound key may do, so every role change is
 * published; a change of password or roles also ends the account's other sessions.
 */
export class UserService {
  private readonly options: UserServiceOptions;
  constructor(options: UserServiceOptions) {
    this.options = options;
  }

  async list(actor: UserActor): Promise<UserListItem[]> {
    requirePermission(actor, 'users:manage');
    const rows = await this.options.users.listForTenant(actor.tenantId);
    const enrolled = await this.options.withSecondFactor(rows.map((row) => row.id));
    return rows.map((row) => ({ ...toUserView(row), second_factor: enrolled.has(row.id) }));
  }

  /** A user without a password signs in through the tenant's identity provider only. */
  async create(actor: Actor, tenantId: string, input: NewUser): Promise<UserView> {
    requirePermission(actor, 'users:manage');
    requireOwnTenant(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    const errors: FieldError[] = [];
    const email = checkEmail(input.email, errors);
    const name = checkName(input.name, errors);
    if (input.password !== undefined) await checkPassword(input.password, email, errors);
    const roles = checkRoles(input.roles, errors);
    if (errors.length > 0) throw new InvalidRequestError(errors);
    guardAdministratorGrant(actor, [], roles);
    const { users, tenants, audit, uow } = this.options;
    if (await users.findByEmail(email)) throw new ConflictError('email_taken');
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const row = await uow.inTransaction(async (tx) => {
      const tenant = await tenants.findById(tenantId, tx);
      if (!tenant) throw new NotFoundError('tenant');
      const user = await users.insert(tx, { tenantId, email, name, passwordHash, roles });
      await audit.record(tx, tenantId, actor, 'user.created', userTarget(user), { roles });
      return { ...user, tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name } };
    });
    return toUserView(row);
  }

  async update(actor: Actor, tenantId: string, id: string, changes: UserChanges): Promise<UserView> {
    requirePermission(actor, 'users:manage');
    requireOwnTenant(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    const errors: FieldError[] = [];
    const name = changes.name === undefined ? undefined : checkName(changes.name, errors);
    const roles = changes.roles === undefined ? undefined : checkRoles(changes.roles, errors);
    if (errors.length > 0) throw new InvalidRequestError(errors);
    const { users, tenants, audit, uow } = this.options;
    if (changes.password !== undefined) {
      // The rule reads the account's e-mail; another tenant's account is as unknown as a missing one.
      const current = await users.findById(id);
      await checkPassword(changes.password, current?.tenantId === tenantId ? current.email : '', errors);
      if (errors.length > 0) throw new InvalidRequestError(errors);
    }
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
    const updated = await uow.inTransaction(async (tx, changed) => {
      await tenants.lock(tx, tenantId); // serialises the last-administrator check
      const user = await users.findInTenant(tx, tenantId, id);
      if (!user) throw new NotFoundError('user');
      guardAdministratorAccount(actor, user.roles);
      const values: Parameters<UserRepository['update']>[2] = {};
      if (name !== undefined) values.name = name;
      if (passwordHash !== undefined) values.passwordHash = passwordHash;
      const rolesChanged = roles !== undefined && !sameRoles(roles, user.roles);
      if (rolesChanged) {
        guardAdministratorGrant(actor, user.roles, roles);
        if (user.roles.includes('system_administrator') && !roles.includes('system_administrator')) {
          await this.guardLastAdministrator(tx, actor, tenantId);
        }
        values.roles = roles;
        await audit.record(tx, tenantId, actor, 'user.roles_changed', userTarget(user), {
          from: user.roles,
          to: roles,
        });
        // The user's keys act with these roles from the very next request.
        changed({ type: 'user', id: user.id });
      }
      if (Object.keys(values).length > 0) await users.update(tx, user.id, values);
      if (passwordHash !== undefined) {
        await audit.record(tx, tenantId, actor, 'user.password_changed', userTarget(user), { by: 'administrator' });
      }
      if (passwordHash !== undefined || rolesChanged) await this.endSessionsOf(tx, actor, user);
      return { ...user, ...values };
    });
    return toUserView(updated);
  }

  /**
   * A person's own password: the current one first (a wrong one counts as a wrong password at
   * sign-in, so a stolen session cannot guess it at the hash's speed), then the rule; their other
   * sessions end. `address` is the client's, as the sign-in throttles count it.
   */
  async changeOwnPassword(
    actor: UserActor,
    address: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    requireRecentSignIn(actor, this.options.clock);
    const { users, audit, uow } = this.options;
    const user = await users.findById(actor.id);
    if (!user) throw new NotFoundError('user');
    const verify = () => verifyPassword(user.passwordHash, currentPassword);
    if (!(await this.options.checkCurrentPassword(user, address, verify))) throw new InvalidCredentialsError();
    const errors: FieldError[] = [];
    await checkPassword(newPassword, user.email, errors, 'new_password');
    if (errors.length > 0) throw new InvalidRequestError(errors);
    const passwordHash = await hashPassword(newPassword);
    await uow.inTransaction(async (tx) => {
      await users.update(tx, user.id, { passwordHash });
      const ended = await users.endSessions(tx, user.id, actor.signIn.sessionId);
      await audit.record(tx, user.tenantId, actor, 'user.password_changed', userTarget(user), {
        by: 'self',
        sessions_ended: ended,
      });
    });
  }

  /** Deletes the account; under creator authority the user's keys are disabled with it. */
  async delete(actor: Actor, tenantId: string, id: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    requireOwnTenant(actor, tenantId);
    requireRecentSignIn(actor, this.options.clock);
    if (actor.type === 'user' && actor.id === id) {
      throw InvalidRequestError.field('id', 'You cannot delete your own account.');
    }
    const { users, tenants, audit, uow, keys } = this.options;
    await uow.inTransaction(async (tx, changed, emit) => {
      const user = await users.findInTenant(tx, tenantId, id);
      if (!user) throw new NotFoundError('user');
      guardAdministratorGrant(actor, user.roles, []);
      const tenant = await tenants.lock(tx, tenantId);
      if (user.roles.includes('system_administrator')) await this.guardLastAdministrator(tx, actor, tenantId);
      const disabled = tenant?.keyAuthority === 'creator' ? await keys.disableCreatedBy(tx, emit, actor, user) : [];
      // Its sessions go with the row (on delete cascade): every instance reads sessions from here.
      await users.delete(tx, user.id);
      await audit.record(tx, tenantId, actor, 'user.deleted', userTarget(user), { disabled_keys: disabled });
      changed({ type: 'user', id: user.id });
    });
  }

  async requireByEmail(email: string): Promise<UserWithTenant> {
    const user = await this.options.users.findByEmail(email);
    if (!user) throw new NotFoundError(`user "${email}"`);
    return user;
  }

  /** Someone else changed the account: all its sessions end; one's own change keeps the session it came through. */
  private async endSessionsOf(tx: Db, actor: Actor, user: UserWithTenant): Promise<void> {
    const own = actor.type === 'user' && actor.id === user.id;
    await this.options.users.endSessions(tx, user.id, own ? actor.signIn.sessionId : null);
  }

  /**
   * A tenant keeps at least one System Administrator, or nobody could manage its keys again (the
   * CLI, an operator's tool, may still do it).
   */
  private async guardLastAdministrator(tx: Db, actor: Actor, tenantId: string): Promise<void> {
    if (actor.type !== 'user') return;
    if ((await this.options.users.countWithRole(tx, tenantId, 'system_administrator')) <= 1) {
      throw new ConflictError('last_system_administrator');
    }
  }
}

export function toUserView(user: UserWithTenant): UserView {
  return { id: user.id, email: user.email, name: user.name, roles: user.roles.filter(isRole), tenant: user.tenant };
}

function userTarget(user: { id: string; email: string }) {
  return { type: 'user', id: user.id, name: user.email } as const;
}
