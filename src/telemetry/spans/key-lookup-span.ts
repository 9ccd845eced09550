import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { KeyRepository } from '../../keys/key-repository.ts';

type KeyLookup = Pick<KeyRepository, 'findFactsByDigest'>;

/**
 * The key check's database read as a span of its own (its SQL span beneath it); the composition
 * root wraps the repository only when tracing is on. Only a miss reaches here: a cached key makes no span.
 * The digest stays out of the span, as the secret does.
 */
export function traceKeyLookups(repository: KeyLookup): KeyLookup {
  const tracer = trace.getTracer('airkey');
  return {
    findFactsByDigest: (digest) =>
      tracer.startActiveSpan('airkey.key_check', async (span) => {
        try {
          const facts = await repository.findFactsByDigest(digest);
          span.setAttribute('airkey.key_check.found', facts !== null);
          return facts;
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
          throw error;
        } finally {
          span.end();
        }
      }),
  };
}
