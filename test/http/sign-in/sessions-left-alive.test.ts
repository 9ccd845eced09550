import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { codeFrom, passwordFrom, pendingFrom, THROUGH_PROXY } from '../../support/door-kit.ts';
import { expectProblem } from '../../support/problems.ts';
import { cookieFrom, enrolTotp, totpCode } from '../../support/second-factors.ts';
import { useHarness } from '../../support/use.ts';

/**
 * A way in left open after the owner closed the others: a pending sign-in (password given, code
 * owed) outliving the sessions that were ended, and a browser's old session outliving a new sign-in.
 */
describe('sessions left alive', () => {
  const h = useHarness({ config: THROUGH_PROXY });

  it('ends a pending sign-in when the person ends their other sessions', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const pending = await pendingFrom(h.app, '198.51.100.20', admin.email, TEST_PASSWORD);
    expect((await admin.request('DELETE', '/backoffice/api/me/sessions')).statusCode).toBe(204);
    const code = totpCode(secret, h.clock.nowMs());
    expectProblem(await codeFrom(h.app, '198.51.100.20', pending, { method: 'totp', code }), 401, 'not_authenticated');
  });

  it('ends a pending sign-in when the password changes', async () => {
    const admin = await h.signedIn();
    const { secret } = await enrolTotp(h, admin);
    const pending = await pendingFrom(h.app, '198.51.100.21', admin.email, TEST_PASSWORD);
    const changed = await admin.request('PUT', '/backoffice/api/me/password', {
      current_password: TEST_PASSWORD,
      new_password: 'another long test password',
    });
    expect(changed.statusCode).toBe(204);
    const code = totpCode(secret, h.clock.nowMs());
    expectProblem(await codeFrom(h.app, '198.51.100.21', pending, { method: 'totp', code }), 401, 'not_authenticated');
  });

  it('ends a pending sign-in when an administrator ends the user’s sessions', async () => {
    const admin = await h.signedIn();
    const colleague = await h.user(admin.tenantId, ['crew']);
    const session = await h.signIn(colleague.email);
    const { secret } = await enrolTotp(h, session);
    const pending = await pendingFrom(h.app, '198.51.100.22', colleague.email, TEST_PASSWORD);
    expect((await admin.request('DELETE', `/backoffice/api/users/${colleague.id}/sessions`)).statusCode).toBe(204);
    const code = totpCode(secret, h.clock.nowMs());
    expectProblem(await codeFrom(h.app, '198.51.100.22', pending, { method: 'totp', code }), 401, 'not_authenticated');
  });

  it('ends the session a browser held when it signs in again, whoever signs in', async () => {
    const admin = await h.signedIn();
    const colleague = await h.user(admin.tenantId, ['crew']);
    const again = await passwordFrom(h.app, '198.51.100.23', colleague.email, TEST_PASSWORD, admin.cookie);
    expect(again.statusCode).toBe(200);
    expect(cookieFrom(again, 'airkey_session')).not.toBe(admin.cookie);
    expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
  });

  it('keeps the held session when the new sign-in fails', async () => {
    const admin = await h.signedIn();
    const wrong = await passwordFrom(h.app, '198.51.100.24', admin.email, 'not the password', admin.cookie);
    expectProblem(wrong, 401, 'invalid_credentials');
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
  });
});
