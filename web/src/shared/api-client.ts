import type { z } from 'zod';
import type { problemSchema } from '@contracts';

export type Problem = z.infer<typeof problemSchema>;
export type FieldError = NonNullable<Problem['errors']>[number];

/** A failed request: the server's problem details, or a network failure (`code: "network"`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  /** Seconds from `Retry-After`, when the server throttled us. */
  readonly retryAfter: number | undefined;

  constructor(problem: Problem, retryAfter?: number) {
    super(problem.detail || problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.retryAfter = retryAfter;
  }

  /** The server's message for a body field (`path` as the server names it, e.g. "name"), the first path that has one. */
  fieldError(...paths: string[]): string | undefined {
    return this.errors.find((error) =>
      paths.some((path) => error.path === path || error.path === `/${path}` || error.path === `body.${path}`),
    )?.message;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// The CSRF token lives in memory only, set from the session response; mutations echo it back.
let csrfToken: string | undefined;
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Asks the person to re-authenticate (the dialog), resolving true once they have, false if they
 * chose not to. Set by the dialog's provider; none (tests, the sign-in page) means no retry.
 */
type Reauthenticate = () => Promise<boolean>;
let reauthenticate: Reauthenticate | undefined;
export function setReauthenticator(handler: Reauthenticate | undefined): void {
  reauthenticate = handler;
}

/**
 * Calls a back-office JSON endpoint under /backoffice/api with the session cookie. A sensitive
 * change refused for an old sign-in (403 reauthentication_required) opens the re-authentication
 * dialog and, once the person has re-authenticated, is sent again, once: the action they asked for
 * happens without asking twice.
 */
export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  try {
    return await send<T>(method, path, body);
  } catch (error) {
    if (!isApiError(error, 'reauthentication_required') || !reauthenticate) throw error;
    if (!(await reauthenticate())) throw error;
    return send<T>(method, path, body);
  }
}

async function send<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (MUTATING.has(method) && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/backoffice/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError({
      type: 'about:blank',
      title: 'Network error',
      status: 0,
      code: 'network',
      detail: 'The server could not be reached. Check your connection and try again.',
    });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) throw new ApiError(toProblem(parsed, response), retryAfterOf(response));
  return parsed as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toProblem(body: unknown, response: Response): Problem {
  if (body && typeof body === 'object' && 'code' in body && 'status' in body) return body as Problem;
  return {
    type: 'about:blank',
    title: response.statusText || 'Request failed',
    status: response.status,
    code: response.status >= 500 ? 'unavailable' : 'unexpected',
    detail: `The server answered ${response.status}. Try again in a moment.`,
  };
}

function retryAfterOf(response: Response): number | undefined {
  const raw = response.headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
