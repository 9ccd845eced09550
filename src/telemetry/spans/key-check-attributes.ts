import { trace } from '@opentelemetry/api';
import type { Accepted } from '../../keys/check/decide.ts';
import type { AirkeyError } from '../../shared/errors.ts';

/**
 * The key check's outcome on the request's span (a limit's refusal is of an accepted key): the key's and tenant's ids when accepted, the
 * refusal's problem code (also as `error.type`) otherwise. Never the presented value. Untraced,
 * `getActiveSpan()` finds nothing and this returns at once.
 */
export function recordKeyCheck(result: Accepted | AirkeyError): void {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  if (result instanceof Error) {
    span.setAttribute('airkey.key_check.outcome', result.code);
    span.setAttribute('error.type', result.code);
    return;
  }
  span.setAttribute('airkey.key_check.outcome', 'accepted');
  span.setAttribute('airkey.key.id', result.keyId);
  if (result.credential === 'oauth') span.setAttribute('airkey.credential', 'oauth');
  span.setAttribute('airkey.tenant.id', result.principal.tenant.id);
}
