import { isApiError } from '../shared/api-client.ts';

/** What a failed sign-in tells the person at the keyboard. */
export function signInErrorText(error: unknown): { title: string; text: string } {
  if (isApiError(error, 'invalid_credentials')) {
    return { title: 'Wrong e-mail or password', text: 'Check both and try again. Passwords are case-sensitive.' };
  }
  if (isApiError(error, 'invalid_second_factor')) {
    return {
      title: 'That did not work',
      text: 'The code is wrong, expired or already used. Each code works once; the app shows a new one every 30 seconds.',
    };
  }
  if (isApiError(error, 'too_many_requests')) {
    const wait = error.retryAfter === undefined ? 'a little while' : waitText(error.retryAfter);
    return {
      title: 'Too many attempts',
      text: `Sign-in is paused after several failed attempts. Try again in ${wait}.`,
    };
  }
  if (isApiError(error)) return { title: 'Sign-in failed', text: error.detail };
  return { title: 'Sign-in failed', text: 'Something went wrong. Try again in a moment.' };
}

export function waitText(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
