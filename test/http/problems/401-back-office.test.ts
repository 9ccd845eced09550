import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({
    now: START,
    rewindClock: true,
    config: { sessionIdleMinutes: 30, sessionMaxHours: 12, reauthMinutes: 10 },
  });

  describe('401 not_authenticated and invalid_credentials', () => {
    it('refuses the back-office API without a live session', async () => {
      expectProblem(await h.app.inject({ method: 'GET', url: '/backoffice/api/api-keys' }), 401, 'not_authenticated');
      expectProblem(
        await h.app.inject({
          method: 'GET',
          url: '/backoffice/api/session',
          headers: { cookie: 'airkey_session=forged' },
        }),
        401,
        'not_authenticated',
      );
      expectProblem(
        await h.app.inject({ method: 'POST', url: '/backoffice/api/api-keys', payload: { name: 'x' } }),
        401,
        'not_authenticated',
      );
      const admin = await h.signedIn();
      expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
      expect((await admin.request('DELETE', '/backoffice/api/session')).statusCode).toBe(204);
      expectProblem(await admin.request('GET', '/backoffice/api/api-keys'), 401, 'not_authenticated');
    });

    it('expires a session after its lifetime: 401 session_expired, then unknown once swept', async () => {
      const admin = await h.signedIn();
      h.clock.advance(13 * 3_600_000);
      expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'session_expired');
      h.clock.advance(24 * 3_600_000);
      await h.services.signIn.sessions.deleteEnded();
      expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
    });

    it('answers a wrong password and an unknown e-mail the same way', async () => {
      const admin = await h.signedIn();
      const wrong = await h.signInAttempt(admin.email, 'not the password', '10.0.4.1');
      const unknown = await h.signInAttempt('nobody@example.test', 'not the password', '10.0.4.1');
      const a = expectProblem(wrong, 401, 'invalid_credentials');
      const b = expectProblem(unknown, 401, 'invalid_credentials');
      expect(a).toEqual(b);
      expect(wrong.cookies).toEqual([]);
    });
  });
});
