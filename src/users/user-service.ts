import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CreatorKeys } from '../keys/creator-keys.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import { requirePermission, type Actor, type UserActor } from '../shared/actor.ts';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  type FieldError,
} from '../shared/errors.ts';
import { hashPassword } from './password.ts';
import { isRole, type Role } from '../shared/roles.ts';
import { isValidEmail, nameProblem, passwordProblem } from '../shared/text-rules.ts';
import type { UserRepository, UserWithTenant } from './user-repository.ts';
import type { NewUser, UserChanges, UserView } from './user-schemas.ts';

export type UserServiceOptions = {
  uow: UnitOfWork;
  users: UserRepository;
  tenants: TenantRepository;
  /** Disables a deleted creator's keys in the deletion's unit of work (the keys feature writes keys). */
  keys: Pick<CreatorKeys, 'disableCreatedBy'>;
  audit: AuditService;
};

/** Accounts and roles. Roles decide what a creator-bound key may do, so every change is published. */
export class UserService {
  private readonly uow: UnitOfWork;
  private readonly users: UserRepository;
  private readonly tenants: TenantRepository;
  private readonly keys: UserServiceOptions['keys'];
  private readonly audit: AuditService;

  constructor(options: UserServiceOptions) {
    this.uow = options.uow;
    this.users = options.users;
    this.tenants = options.tenants;
    this.keys = options.keys;
    this.audit = options.audit;
  }

  async list(actor: UserActor): Promise<UserView[]> {
    requirePermission(actor, 'users:manage');
    return (await this.users.listForTenant(actor.tenantId)).map(toUserView);
  }

  async create(actor: Actor, tenantId: string, input: NewUser): Promise<UserView> {
    requirePermission(actor, 'users:manage');
    const errors: FieldError[] = [];
    const email = checkEmail(input.email, errors);
    const name = checkName(input.name, errors);
    checkPassword(input.password, errors);
    const roles = checkRoles(input.roles, errors);
    if (errors.length > 0) throw new InvalidRequestError(errors);
    guardAdministratorGrant(actor, [], roles);
    if (await this.users.findByEmail(email)) throw new ConflictError('email_taken');
    const passwordHash = await hashPassword(input.password);
    const row = await this.uow.inTransaction(async (tx) => {
      const tenant = await this.tenants.findById(tenantId, tx);
      if (!tenant) throw new NotFoundError('tenant');
      const user = await this.users.insert(tx, { tenantId, email, name, passwordHash, roles });
      await this.audit.record(
        tx,
        tenantId,
        actor,
        'user.created',
        { type: 'user', id: user.id, name: user.email },
        { roles },
      );
      return { ...user, tenant: { id: tenant.id, slug: tenant.slug, name: tenant.name } };
    });
    return toUserView(row);
  }

  async update(actor: Actor, tenantId: string, id: string, changes: UserChanges): Promise<UserView> {
    requirePermission(actor, 'users:manage');
    const errors: FieldError[] = [];
    const name = changes.name === undefined ? undefined : checkName(changes.name, errors);
    if (changes.password !== undefined) checkPassword(changes.password, errors);
    const roles = changes.roles === undefined ? undefined : checkRoles(changes.roles, errors);
    if (errors.length > 0) throw new InvalidRequestError(errors);
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
    const updated = await this.uow.inTransaction(async (tx, changed) => {
      await this.tenants.lock(tx, tenantId); // serialises the last-administrator check
      const user = await this.users.findInTenant(tx, tenantId, id);
      if (!user) throw new NotFoundError('user');
      guardAdministratorAccount(actor, user.roles);
      const values: Parameters<UserRepository['update']>[2] = {};
      if (name !== undefined) values.name = name;
      if (passwordHash !== undefined) values.passwordHash = passwordHash;
      if (roles !== undefined && !sameRoles(roles, user.roles)) {
        guardAdministratorGrant(actor, user.roles, roles);
        if (user.roles.includes('system_administrator') && !roles.includes('system_administrator')) {
          await this.guardLastAdministrator(tx, actor, tenantId);
        }
        values.roles = roles;
        await this.audit.record(
          tx,
          tenantId,
          actor,
          'user.roles_changed',
          { type: 'user', id: user.id, name: user.email },
          {
            from: user.roles,
            to: roles,
          },
        );
        // The user's keys act with these roles from the very next request.
        changed({ type: 'user', id: user.id });
      }
      if (Object.keys(values).length > 0) await this.users.update(tx, user.id, values);
      // A password set by someone else ends every session the account had.
      if (passwordHash !== undefined && !(actor.type === 'user' && actor.id === user.id))
        await this.users.endSessions(tx, user.id);
      return { ...user, ...values };
    });
    return toUserView(updated);
  }

  /** Deletes the account; under creator authority the user's keys are disabled with it. */
  async delete(actor: Actor, tenantId: string, id: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    if (actor.type === 'user' && actor.id === id) {
      throw InvalidRequestError.field('id', 'You cannot delete your own account.');
    }
    await this.uow.inTransaction(async (tx, changed, emit) => {
      const user = await this.users.findInTenant(tx, tenantId, id);
      if (!user) throw new NotFoundError('user');
      guardAdministratorGrant(actor, user.roles, []);
      const tenant = await this.tenants.lock(tx, tenantId);
      if (user.roles.includes('system_administrator')) await this.guardLastAdministrator(tx, actor, tenantId);
      const disabled =
        tenant?.keyAuthority === 'creator' ? await this.keys.disableCreatedBy(tx, emit, actor, user) : [];
      await this.users.delete(tx, user.id);
      await this.audit.record(
        tx,
        tenantId,
        actor,
        'user.deleted',
        { type: 'user', id: user.id, name: user.email },
        { disabled_keys: disabled },
      );
      changed({ type: 'user', id: user.id });
    });
  }

  /**
   * A tenant keeps at least one System Administrator, or nobody could manage its keys again (the
   * CLI, an operator's tool, may still do it).
   */
  private async guardLastAdministrator(tx: Db, actor: Actor, tenantId: string): Promise<void> {
    if (actor.type !== 'user') return;
    if ((await this.users.countWithRole(tx, tenantId, 'system_administrator')) <= 1) {
      throw new ConflictError('last_system_administrator');
    }
  }

  async requireByEmail(email: string): Promise<UserWithTenant> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new NotFoundError(`user "${email}"`);
    return user;
  }
}

export function toUserView(user: UserWithTenant): UserView {
  return { id: user.id, email: user.email, name: user.name, roles: user.roles.filter(isRole), tenant: user.tenant };
}

/** Only a System Administrator may grant or remove the System Administrator role (docs/roles.md). */
function guardAdministratorGrant(actor: Actor, before: readonly string[], after: readonly string[]): void {
  if (actor.type !== 'user' || actor.roles.includes('system_administrator')) return;
  if (before.includes('system_administrator') !== after.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      'Only a System Administrator may grant or remove the system_administrator role.',
    );
  }
}

/** A System Administrator's account (password, name, roles) is changed only by a System Administrator. */
function guardAdministratorAccount(actor: Actor, targetRoles: readonly string[]): void {
  if (actor.type !== 'user' || actor.roles.includes('system_administrator')) return;
  if (targetRoles.includes('system_administrator')) {
    throw new PermissionDeniedError(
      'system_administrator',
      "Only a System Administrator may change a System Administrator's account.",
    );
  }
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((role) => b.includes(role));
}

function checkEmail(raw: unknown, errors: FieldError[]): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!isValidEmail(email)) errors.push({ path: 'email', message: 'Enter a valid e-mail address.' });
  return email;
}

function checkName(raw: unknown, errors: FieldError[]): string {
  const problem = nameProblem(raw);
  if (problem) errors.push({ path: 'name', message: problem });
  return typeof raw === 'string' ? raw.trim() : '';
}

function checkPassword(raw: unknown, errors: FieldError[]): void {
  const problem = passwordProblem(raw);
  if (problem) errors.push({ path: 'password', message: problem });
}

function checkRoles(raw: readonly string[], errors: FieldError[]): Role[] {
  const unknown = raw.filter((role) => !isRole(role));
  if (unknown.length > 0) errors.push({ path: 'roles', message: `Unknown role(s): ${unknown.join(', ')}.` });
  return [...new Set(raw.filter(isRole))];
}
