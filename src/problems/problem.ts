import type { FastifyError, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnreachable } from '../db/unavailable.ts';
import {
  AirkeyError,
  catalogEntry,
  InvalidRequestError,
  UnavailableError,
  type ErrorKind,
  type FieldError,
} from '../shared/errors.ts';
import type { Problem } from './problem-schema.ts';

/**
 * Errors as RFC 9457 problem details, for every adapter: the HTTP server's error handler, the MCP
 * tools and the admin socket map a failure here, once, so they answer the same failure alike.
 */
export const PROBLEM_BASE = 'https://airkey.dev/problems/';

/** A catalog entry as problem details, for failures that are not thrown as an AirkeyError. */
export function problemFor(kind: ErrorKind, detail?: string): Problem {
  const entry = catalogEntry(kind);
  return {
    type: PROBLEM_BASE + entry.code,
    title: entry.title,
    status: entry.status,
    detail: detail ?? entry.detail,
    code: entry.code,
  };
}

export function problemOf(error: unknown): Problem {
  if (error instanceof AirkeyError) {
    const problem: Problem = {
      type: PROBLEM_BASE + error.code,
      title: error.title,
      status: error.status,
      detail: error.message,
      code: error.code,
    };
    // Every 400 names its fields (InvalidRequestError, a rejected webhook URL, a policy violation...).
    if ('errors' in error && Array.isArray(error.errors)) problem.errors = error.errors as FieldError[];
    return problem;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    const errors = error.validation.flatMap((issue): FieldError[] => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const unknownKeys = (issue.params as { keys?: unknown }).keys;
      if (issue.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys)) {
        return unknownKeys.map((key) => ({
          path: path ? `${path}.${String(key)}` : String(key),
          message: 'Unknown field.',
        }));
      }
      return [{ path: path || context, message: issue.message ?? 'Invalid value.' }];
    });
    return problemOf(new InvalidRequestError(errors));
  }
  if (isDatabaseUnreachable(error)) return problemOf(new UnavailableError({ cause: error }));
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return clientProblem(error as FastifyError, status);
  return problemFor('internal_error');
}

/** Fastify's own 4xx (malformed JSON, wrong content type, body too large) in our shape. */
function clientProblem(error: FastifyError, status: number): Problem {
  if (status === 400 && error.code === 'FST_ERR_BAD_URL') {
    return problemOf(
      new InvalidRequestError([{ path: 'url', message: 'The URL is malformed.' }], 'The URL is malformed.'),
    );
  }
  if (status === 400) {
    const detail =
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The JSON body is empty.' : 'The request body is not valid JSON.';
    return problemOf(new InvalidRequestError([{ path: 'body', message: detail }], detail));
  }
  const kind = FRAMEWORK_STATUS_KINDS[status];
  // Any other 4xx keeps its status; its text is the catalog's generic one.
  return kind ? problemFor(kind) : { ...problemFor('bad_request'), status };
}

/** Fastify's own 4xx statuses, by the catalog entry that answers each. */
const FRAMEWORK_STATUS_KINDS: Partial<Record<number, ErrorKind>> = {
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
};

/** Key rejections where a key was presented: RFC 6750 `invalid_token`, so a client knows to get a new one. */
const PRESENTED_BUT_REFUSED = new Set(['api_key_invalid', 'api_key_disabled', 'api_key_expired', 'invalid_token']);

/**
 * A protected resource's scope (`/api/v1`, `/mcp`) decorates its replies with its RFC 9728
 * metadata URL (a prototype value: nothing per request); its 401s name it as `resource_metadata`.
 */
export type ResourceReply = { resourceMetadata?: string };

const challenges = new Map<string, string>();
function challengeOf(refused: boolean, metadata: string | undefined): string {
  const name = `${refused}${metadata ?? ''}`;
  let challenge = challenges.get(name);
  if (challenge === undefined) {
    challenge = `Bearer realm="airkey"${refused ? ', error="invalid_token"' : ''}`;
    if (metadata !== undefined) challenge += `, resource_metadata="${metadata}"`;
    challenges.set(name, challenge);
  }
  return challenge;
}

/** `body`: the problem already serialised (sent as it is). */
export function sendProblem(reply: FastifyReply, problem: Problem, body?: string): FastifyReply {
  // RFC 6750 challenges only: MCP clients (mcp-remote and others) parse Bearer challenges, and an
  // extra non-standard scheme in the same header trips some parsers. X-API-Key is in docs/api.md.
  if (problem.status === 401 && (problem.code.startsWith('api_key') || problem.code === 'invalid_token')) {
    const metadata = (reply as FastifyReply & ResourceReply).resourceMetadata;
    reply.header('WWW-Authenticate', challengeOf(PRESENTED_BUT_REFUSED.has(problem.code), metadata));
  }
  // With the charset already named, Fastify sends the type as it is instead of building it per reply.
  return reply
    .code(problem.status)
    .type('application/problem+json; charset=utf-8')
    .send(body ?? problem);
}
