import { describe, expect, it, vi } from 'vitest';
import { goToSignIn, safeNext, signInUrl } from './next.ts';

const origin = 'http://127.0.0.1:3000';

describe('the ?next= target after sign-in', () => {
  it('goes to the API-key page by default', () => {
    expect(safeNext(null, origin)).toBe('/backoffice/settings/api-keys');
    expect(safeNext('', origin)).toBe('/backoffice/settings/api-keys');
  });

  it('honours back-office paths with their query', () => {
    expect(safeNext('/backoffice/users', origin)).toBe('/backoffice/users');
    expect(safeNext('/backoffice/settings/api-keys?tab=activity', origin)).toBe(
      '/backoffice/settings/api-keys?tab=activity',
    );
  });

  it.each([
    'https://evil.example/backoffice/users',
    '//evil.example/backoffice/users',
    '/\\evil.example/backoffice/users',
    'javascript:alert(1)',
    '/api/v1/flights',
    '/backoffice',
    '/backoffice/../api/v1/whoami',
    '/backoffice/login?next=/backoffice/users',
  ])('refuses %s', (raw) => {
    expect(safeNext(raw, origin)).toBe('/backoffice/settings/api-keys');
  });

  it('round-trips through the sign-in URL', () => {
    const url = new URL(signInUrl('/backoffice/users?x=1'), origin);
    expect(safeNext(url.searchParams.get('next'), origin)).toBe('/backoffice/users?x=1');
  });

  it('says why when the session ended, and still returns to the page', () => {
    const url = new URL(signInUrl('/backoffice/users', 'session_expired'), origin);
    expect(url.searchParams.get('reason')).toBe('session_expired');
    expect(safeNext(url.searchParams.get('next'), origin)).toBe('/backoffice/users');
  });
});

describe('leaving for sign-in when a session lapses', () => {
  it('navigates once, however many refused queries ask: a second navigation would abort the first', () => {
    const replace = vi.fn();
    goToSignIn('/backoffice/users', 'session_expired', { replace });
    goToSignIn('/backoffice/users', 'session_expired', { replace });
    goToSignIn('/backoffice/users', undefined, { replace });
    expect(replace.mock.calls).toEqual([['/backoffice/login?next=%2Fbackoffice%2Fusers&reason=session_expired']]);
  });

  it('starts no second navigation after a sign-out: the refused refetch must not abort it', async () => {
    vi.resetModules();
    const fresh = await import('./next.ts');
    const assign = vi.fn();
    const replace = vi.fn();
    fresh.goToSignInAfterSignOut({ assign });
    fresh.goToSignIn('/backoffice/users', 'session_expired', { replace });
    expect(assign.mock.calls).toEqual([['/backoffice/login']]);
    expect(replace).not.toHaveBeenCalled();
  });
});
