import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemFor, problemOf, sendProblem } from '../problems/problem.ts';
import type { Problem } from '../problems/problem-schema.ts';
import { AirkeyError, TooManyRequestsError } from '../shared/errors.ts';

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AirkeyError) return sendError(request, reply, error);
  const problem = problemOf(error);
  if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.problemCode = problem.code;
  return sendProblem(reply, problem);
}

// A frozen error cannot change, so its body is serialised once: the key check's refusals are
// shared frozen instances (src/http/admission-answer.ts), answered thousands of times a second in a flood.
const frozenProblems = new WeakMap<AirkeyError, { problem: Problem; body: string }>();

/**
 * An AirkeyError as problem details, with the headers its kind needs. The error handler calls it,
 * and so does the key hook for its refusals: a refusal then skips Fastify's error path.
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AirkeyError): FastifyReply {
  if (error.status >= 500) request.log.error({ err: error }, 'request failed');
  // A refusal is not a second line: its code goes on the request's one line (logRequestDone).
  // A flood of refusals then costs no more log writes than the same number of acceptances.
  else request.problemCode = error.code;
  if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
  if (!Object.isFrozen(error)) return sendProblem(reply, problemOf(error));
  let frozen = frozenProblems.get(error);
  if (!frozen) {
    const problem = problemOf(error);
    frozenProblems.set(error, (frozen = { problem, body: JSON.stringify(problem) }));
  }
  return sendProblem(reply, frozen.problem, frozen.body);
}

const NO_SUCH_ROUTE = problemFor('not_found', 'No such route.');

export function notFoundHandler(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, NO_SUCH_ROUTE);
}
