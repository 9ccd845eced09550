import { REQUEST_OUTCOMES, type RequestOutcome } from './request-log-schemas.ts';
import type { RequestCredential } from './request-record.ts';

/**
 * How the request log stores its few-valued fields (drizzle/0017_request_log_row.sql): as small
 * integers, which cost a row less to send, parse and keep than their text. A code, once stored,
 * keeps its meaning: a new value goes at the end of its list, never in between.
 */

/** Every method Node's parser accepts (`http.METHODS`), the usual ones first. */
export const STORED_METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'ACL',
  'BIND',
  'CHECKOUT',
  'CONNECT',
  'COPY',
  'LINK',
  'LOCK',
  'M-SEARCH',
  'MERGE',
  'MKACTIVITY',
  'MKCALENDAR',
  'MKCOL',
  'MOVE',
  'NOTIFY',
  'PROPFIND',
  'PROPPATCH',
  'PURGE',
  'QUERY',
  'REBIND',
  'REPORT',
  'SEARCH',
  'SOURCE',
  'SUBSCRIBE',
  'TRACE',
  'UNBIND',
  'UNLINK',
  'UNLOCK',
  'UNSUBSCRIBE',
] as const;

/** A method a later Node accepts and this list does not know yet: stored as -1, read as this. */
const UNKNOWN_METHOD = 'OTHER';

const METHOD_CODE = new Map<string, number>(STORED_METHODS.map((method, i) => [method, i]));
const OUTCOME_CODE = new Map<RequestOutcome, number>(REQUEST_OUTCOMES.map((outcome, i) => [outcome, i]));

export const methodCode = (method: string): number => METHOD_CODE.get(method) ?? -1;
export const methodOf = (code: number): string => STORED_METHODS[code] ?? UNKNOWN_METHOD;

/** `ok` is 0: the failures' index holds the rows whose outcome is not. */
export const outcomeCode = (outcome: RequestOutcome): number => OUTCOME_CODE.get(outcome) ?? 0;
export const outcomeOfCode = (code: number): RequestOutcome => REQUEST_OUTCOMES[code] ?? 'error';

export const credentialCode = (credential: RequestCredential): number => (credential === 'oauth' ? 1 : 0);
export const credentialOf = (code: number): RequestCredential => (code === 1 ? 'oauth' : 'key');
