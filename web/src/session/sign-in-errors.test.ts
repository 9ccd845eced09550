import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client.ts';
import { signInErrorText, waitText } from './sign-in-errors.ts';

const problem = (status: number, code: string) => ({
  type: 'about:blank',
  title: 't',
  status,
  code,
  detail: 'server detail',
});

describe('sign-in errors', () => {
  it('says the credentials are wrong without telling which', () => {
    expect(signInErrorText(new ApiError(problem(401, 'invalid_credentials'))).title).toBe('Wrong e-mail or password');
  });

  it('says a second-factor code may be wrong, expired or spent, without saying which', () => {
    const { title, text } = signInErrorText(new ApiError(problem(401, 'invalid_second_factor')));
    expect(title).toBe('That did not work');
    expect(text).toContain('Each code works once');
  });

  it('tells a throttled user how long to wait, from Retry-After', () => {
    expect(signInErrorText(new ApiError(problem(429, 'too_many_requests'), 42)).text).toContain(
      'Try again in 42 seconds.',
    );
    expect(signInErrorText(new ApiError(problem(429, 'too_many_requests'), 300)).text).toContain(
      'Try again in 5 minutes.',
    );
  });

  it('shows the server’s detail for anything else', () => {
    expect(signInErrorText(new ApiError(problem(503, 'unavailable'))).text).toBe('server detail');
  });

  it('rounds waits up to whole minutes past one minute', () => {
    expect(waitText(61)).toBe('2 minutes');
    expect(waitText(1)).toBe('1 second');
  });
});
