import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Accepted } from '../keys/check/decide.ts';
import { checkLimits, type KeyLimits, type LimitVerdict } from '../limits/index.ts';
import { withoutStack } from '../shared/errors.ts';
import { QuotaExceededError, RateLimitedError } from '../shared/limit-errors.ts';
import { problemFor, sendProblem } from '../problems/problem.ts';
import { sendError } from './problem.ts';

export type { KeyLimits, LimitsSeen } from '../limits/index.ts';

/**
 * A key's limits over HTTP: src/limits decides (the rate limit, then the quota), this turns its
 * verdict into the RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), Retry-After and
 * the problem body. Callback style, as the key check: a key this instance holds budget for is
 * passed or refused without a promise.
 */
export function applyLimits(
  limits: KeyLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  accepted: Accepted,
): void {
  let verdict: LimitVerdict | Promise<LimitVerdict>;
  try {
    verdict = checkLimits(limits, accepted);
  } catch (error) {
    return done(error as Error);
  }
  if (verdict instanceof Promise) verdict.then((settled) => answer(request, reply, done, settled), done);
  else answer(request, reply, done, verdict);
}

function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  verdict: LimitVerdict,
): void {
  if (verdict.fields !== undefined) {
    // Lowercase, as Fastify stores and sends them: a name it must lowercase is a new string per response.
    reply.header('ratelimit-policy', verdict.fields.policy);
    reply.header('ratelimit', verdict.fields.current);
  }
  if (verdict.admit) {
    if (verdict.seen !== undefined) request.limitsSeen = verdict.seen;
    return done();
  }
  if (verdict.retryAfterSeconds !== undefined) reply.header('retry-after', String(verdict.retryAfterSeconds));
  if (verdict.refusal === 'rate_limited') return void sendError(request, reply, RATE_LIMITED);
  if (verdict.refusal === 'quota_exceeded') return void sendError(request, reply, QUOTA_EXCEEDED[verdict.period!]);
  request.problemCode = 'unavailable';
  sendProblem(reply, QUOTA_UNAVAILABLE);
}

// Frozen refusals built once without a stack: the wait is in the header fields, so each body
// never changes and is serialised once.
const RATE_LIMITED = Object.freeze(withoutStack(() => new RateLimitedError()));
const QUOTA_EXCEEDED = {
  day: Object.freeze(withoutStack(() => new QuotaExceededError('day'))),
  month: Object.freeze(withoutStack(() => new QuotaExceededError('month'))),
  total: Object.freeze(withoutStack(() => new QuotaExceededError('total'))),
};
const QUOTA_UNAVAILABLE = problemFor(
  'unavailable',
  "The service cannot reach the count of this key's quota right now. Retry shortly.",
);
