import { describe, expect, it } from 'vitest';
import type { UserView } from '../../src/users/user-schemas.ts';
import type { KeyList } from '../../src/keys/key-schemas.ts';
import { json, useHarness } from '../support/use.ts';
import { ROLES, type Role } from '../../src/shared/roles.ts';
import { type Session } from '../support/harness.ts';
import { expectProblem } from '../support/problems.ts';

const MANAGES_KEYS: Role[] = ['system_administrator'];
const MANAGES_USERS: Role[] = ['system_administrator', 'administrator'];

/** Every role against every key endpoint (docs/roles.md, docs/api.md): allowed → 2xx, others → 403, even listing. */
describe('roles on the back-office endpoints', () => {
  const h = useHarness();

  /** A tenant where a System Administrator already made a key, and a user with `role` signed in. */
  async function tenantFor(role: Role): Promise<{ admin: Session; user: Session; keyId: string }> {
    const admin = await h.signedIn(['system_administrator']);
    const { api_key } = await h.createKey(admin, { name: 'existing' });
    const user = role === 'system_administrator' ? admin : await h.signIn((await h.user(admin.tenantId, [role])).email);
    return { admin, user, keyId: api_key.id };
  }

  describe.each(ROLES)('%s', (role) => {
    const allowed = MANAGES_KEYS.includes(role);

    it(
      allowed
        ? 'lists, creates, disables and deletes keys'
        : 'gets 403 permission_denied on every key endpoint, listing included',
      async () => {
        const { admin, user, keyId } = await tenantFor(role);
        const list = await user.request('GET', '/backoffice/api/api-keys');
        const create = await user.request('POST', '/backoffice/api/api-keys', { name: `by ${role}` });
        const patch = await user.request('PATCH', `/backoffice/api/api-keys/${keyId}`, { enabled: false });
        const audit = await user.request('GET', '/backoffice/api/audit-events');
        if (allowed) {
          expect(list.statusCode).toBe(200);
          expect(json<KeyList>(list).data.map((k) => k.id)).toEqual([keyId]);
          expect(create.statusCode).toBe(201);
          expect(create.headers['cache-control']).toContain('no-store');
          expect(patch.statusCode).toBe(200);
          expect(audit.statusCode).toBe(200);
        } else {
          for (const response of [list, create, patch, audit]) expectProblem(response, 403, 'permission_denied');
        }
        const remove = await user.request('DELETE', `/backoffice/api/api-keys/${keyId}`);
        if (allowed) expect(remove.statusCode).toBe(204);
        else expectProblem(remove, 403, 'permission_denied');

        // What the administrator sees proves whether anything changed.
        const after = json<KeyList>(await admin.request('GET', '/backoffice/api/api-keys')).data as Array<{
          id: string;
          enabled: boolean;
        }>;
        if (allowed) expect(after.map((k) => k.id)).not.toContain(keyId);
        else expect(after).toEqual([expect.objectContaining({ id: keyId, enabled: true })]);
      },
    );

    it(MANAGES_USERS.includes(role) ? 'may list users' : 'gets 403 on the users endpoints', async () => {
      const { user } = await tenantFor(role);
      const list = await user.request('GET', '/backoffice/api/users');
      if (MANAGES_USERS.includes(role)) {
        expect(list.statusCode).toBe(200);
        expect(json<{ data: UserView[] }>(list).data.map((u) => u.email)).toContain(user.email);
      } else {
        expectProblem(list, 403, 'permission_denied');
        expectProblem(
          await user.request('POST', '/backoffice/api/users', {
            email: 'x@example.test',
            name: 'X',
            password: 'long-enough-pw',
            roles: [],
          }),
          403,
          'permission_denied',
        );
      }
    });

    it('signs in and reads its own session with its roles', async () => {
      const { user } = await tenantFor(role);
      const session = await user.request('GET', '/backoffice/api/session');
      expect(session.statusCode).toBe(200);
      expect(session.json()).toMatchObject({
        user: { email: user.email, roles: [role], tenant: { id: user.tenantId } },
        csrf_token: user.csrf,
      });
    });
  });
});
