import type { Span } from '@opentelemetry/api';
import type { Principal } from '../shared/principal.ts';
import type { ResolvedSession } from '../sessions/session-service.ts';
import type { onRequestHookHandler } from 'fastify';
import type { LimitsSeen } from '../limits/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The admission in front of `/api/v1` and `/mcp` (src/http/admission-answer.ts), built once by
     * the app: MCP takes it from here rather than importing the HTTP adapter.
     */
    admissionHook: onRequestHookHandler;
  }
  interface FastifyRequest {
    /** The client's address, canonical, from the peer and TRUSTED_PROXIES (src/http/client-address.ts). */
    client: string;
    /** Reached over TLS, here or at a trusted proxy (X-Forwarded-Proto): the session cookie is then Secure. */
    https: boolean;
    /** Set by the key check on /api/v1 and /mcp. */
    principal?: Principal;
    /** A key of a tenant the key check refused (disabled, expired, retired, address): for the request log. */
    refusedKey?: Principal | undefined;
    /** Set by the session check on the back office. */
    backofficeSession?: ResolvedSession & { token: string };
    /** The problem code of a refused request, for its one log line. */
    problemCode?: string;
    /** The request's server span, only when tracing is on and the sampler kept the request. */
    traceSpan?: Span | undefined;
    /** What a limited key had left after this request (src/admission/admit.ts), for whoami's `limits`. */
    limitsSeen?: LimitsSeen | undefined;
  }
}
