import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.ts';
import { useHarness } from '../../support/use.ts';

const MINUTE = 60_000;

describe('sessions that end', () => {
  const h = useHarness({ config: { sessionIdleMinutes: 30, sessionMaxHours: 12, reauthMinutes: 10 } });

  it('ends after 30 minutes without a request: 401 session_expired', async () => {
    const admin = await h.signedIn();
    h.clock.advance(29 * MINUTE);
    expect((await admin.request('GET', '/backoffice/api/api-keys')).statusCode).toBe(200);
    // Each request starts the idle time again.
    h.clock.advance(29 * MINUTE);
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    h.clock.advance(30 * MINUTE);
    expectProblem(await admin.request('GET', '/backoffice/api/api-keys'), 401, 'session_expired');
    expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'session_expired');
  });

  it('ends 12 hours after sign-in however busy it is', async () => {
    const admin = await h.signedIn();
    // A request every 20 minutes for 11 h 40 min, then one at 11 h 59 min: all within the limits.
    for (let step = 0; step < 35; step++) {
      h.clock.advance(20 * MINUTE);
      expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    }
    h.clock.advance(19 * MINUTE);
    expect((await admin.request('GET', '/backoffice/api/session')).statusCode).toBe(200);
    h.clock.advance(MINUTE);
    expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'session_expired');
  });

  it('sends an ended session’s page to sign-in, keeping where the person was and why', async () => {
    const admin = await h.signedIn();
    h.clock.advance(31 * MINUTE);
    const page = await h.app.inject({
      method: 'GET',
      url: '/backoffice/settings/webhooks',
      headers: { cookie: admin.cookie },
    });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(
      `/backoffice/login?next=${encodeURIComponent('/backoffice/settings/webhooks')}&reason=session_expired`,
    );
  });

  it('forgets an ended session after a day: the cookie is then simply unknown', async () => {
    const admin = await h.signedIn();
    h.clock.advance(31 * MINUTE + 24 * 60 * MINUTE);
    await h.services.signIn.sessions.deleteEnded();
    expectProblem(await admin.request('GET', '/backoffice/api/session'), 401, 'not_authenticated');
  });

  it('says until when sensitive actions pass without re-authenticating', async () => {
    const admin = await h.signedIn();
    const session = (await admin.request('GET', '/backoffice/api/session')).json<{ reauthenticated_until: string }>();
    expect(Date.parse(session.reauthenticated_until)).toBe(h.clock.nowMs() + 10 * MINUTE);
  });
});
