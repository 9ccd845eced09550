import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema.ts';
import { passwordProblem } from '../../../src/shared/password-rules.ts';
import { hashPassword } from '../../../src/users/password.ts';
import { expectProblem } from '../../support/problems.ts';
import { useHarness } from '../../support/use.ts';

describe('the password rule', () => {
  const h = useHarness();

  it('takes 12 to 128 characters, counted as characters', async () => {
    expect(await passwordProblem('eleven chrs', 'a@example.test')).toMatch(/12–128/);
    expect(await passwordProblem('twelve chars', 'a@example.test')).toBeNull();
    expect(await passwordProblem('ü'.repeat(128), 'a@example.test')).toBeNull();
    expect(await passwordProblem('ü'.repeat(129), 'a@example.test')).toMatch(/12–128/);
    expect(await passwordProblem('🔑'.repeat(12), 'a@example.test')).toBeNull();
  });

  it('refuses the 10,000 most common passwords in any case, and takes the 10,001st', async () => {
    expect(await passwordProblem('1qaz2wsx3edc', 'a@example.test')).toMatch(/most common/);
    expect(await passwordProblem('LeaveMeAlone', 'a@example.test')).toMatch(/most common/);
    // Further down zxcvbn's list than the 10,000 counted.
    expect(await passwordProblem('websolutions', 'a@example.test')).toBeNull();
  });

  it('refuses the e-mail’s local part inside, from four characters on', async () => {
    expect(await passwordProblem('my name is Marjorie!', 'marjorie@example.test')).toMatch(/e-mail/);
    expect(await passwordProblem('ann likes long walks', 'ann@example.test')).toBeNull();
  });

  it('applies when a System Administrator creates a user or sets their password', async () => {
    const admin = await h.signedIn();
    const common = await admin.request('POST', '/backoffice/api/users', {
      email: 'harriet@example.test',
      name: 'Harriet',
      password: 'qwerty123456',
      roles: ['crew'],
    });
    expect(expectProblem(common, 400, 'invalid_request').errors).toEqual([
      { path: 'password', message: expect.stringMatching(/most common/) as string },
    ]);
    const ownName = await admin.request('POST', '/backoffice/api/users', {
      email: 'harriet@example.test',
      name: 'Harriet',
      password: 'Harriet is my name',
      roles: ['crew'],
    });
    expect(expectProblem(ownName, 400, 'invalid_request').errors?.[0]?.message).toMatch(/e-mail/);
    const user = await h.user(admin.tenantId, ['crew']);
    const reset = await admin.request('PATCH', `/backoffice/api/users/${user.id}`, { password: '123qweasdzxc' });
    expectProblem(reset, 400, 'invalid_request');
  });

  it('keeps existing passwords working: the rule applies only when one is set', async () => {
    const admin = await h.signedIn();
    const user = await h.user(admin.tenantId, ['crew']);
    // Written as an older version would have (a 10-character password, allowed then).
    await h.services.database.db
      .update(users)
      .set({ passwordHash: await hashPassword('old-10char') })
      .where(eq(users.id, user.id));
    expect((await h.signInAttempt(user.email, 'old-10char')).statusCode).toBe(200);
  });
});
