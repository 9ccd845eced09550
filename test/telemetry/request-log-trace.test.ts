import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogPage } from '../../src/request-log/request-log-schemas.ts';
import { clientAddress, signIn, waitFor } from '../support/instances.ts';
import { ADMIN, callerTraceparent, SERVER, startTracedServer, traceOf, type TracedServer } from './trace-kit.ts';

let traced: TracedServer;
beforeAll(async () => {
  traced = await startTracedServer({ USAGE_FLUSH_MS: '100' });
}, 120_000);
afterAll(() => traced?.stop());

/** A request's log entry leads to its trace (docs/request-log.md): the same trace id as its server span. */
describe('the request log of a traced request', () => {
  it('records the trace id of the request’s server span', async () => {
    const caller = callerTraceparent();
    const response = await fetch(`${traced.server.url}/api/v1/whoami`, {
      headers: { 'x-api-key': traced.key.secret, traceparent: caller.header, 'x-forwarded-for': clientAddress() },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const server = (await traceOf(traced.receiver, caller.traceId)).find((span) => span.kind === SERVER)!;

    const session = await signIn(traced.server, ADMIN.email);
    const entries = async () =>
      (await session.request<RequestLogPage>(traced.server, 'GET', `/backoffice/api/request-log?key=${traced.key.id}`))
        .body.data;
    await waitFor(async () => (await entries()).length === 1, { timeoutMs: 10_000, what: 'the entry written' });
    expect((await entries())[0]).toMatchObject({ route: '/api/v1/whoami', outcome: 'ok', trace_id: server.traceId });
  });
});
