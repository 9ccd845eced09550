import { ROOT_CONTEXT } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { clientAddress } from '../support/instances.ts';
import { callerTraceparent, SERVER, startTracedServer, traceOf, type TracedServer } from './trace-kit.ts';

let traced: TracedServer | undefined;
afterEach(() => traced?.stop());

async function whoami(server: TracedServer, traceparent?: string): Promise<void> {
  const response = await fetch(`${server.server.url}/api/v1/whoami`, {
    headers: {
      'x-api-key': server.key.secret,
      'x-forwarded-for': clientAddress(),
      ...(traceparent ? { traceparent } : {}),
    },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

/**
 * The whoami server spans exported so far. Spans are exported in the order they end: once a later
 * request's trace has arrived, so has everything before it.
 */
async function whoamiSpansSoFar(server: TracedServer) {
  const marker = callerTraceparent();
  await whoami(server, marker.header);
  await traceOf(server.receiver, marker.traceId);
  return server.receiver.spans.filter(
    (span) => span.kind === SERVER && span.name === 'GET /api/v1/whoami' && span.traceId !== marker.traceId,
  );
}

function requestLogLines(server: TracedServer): Array<{ trace_id?: string }> {
  return server.server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"') && line.includes('/api/v1/whoami'))
    .map((line) => JSON.parse(line) as { trace_id?: string });
}

describe('sampling requests that come without a parent', () => {
  it('records what the ratio sampler keeps, each on its own trace id, and nothing of the rest', async () => {
    traced = await startTracedServer({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    const requests = 200;
    for (let batch = 0; batch < requests / 10; batch++)
      await Promise.all(Array.from({ length: 10 }, () => whoami(traced!)));

    const roots = await whoamiSpansSoFar(traced);
    // 50 expected; the bounds are five standard deviations away, and a ratio applied twice (6.25 %)
    // would fall below them.
    expect(roots.length).toBeGreaterThanOrEqual(20);
    expect(roots.length).toBeLessThanOrEqual(80);
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(roots.length);
    // The trace each was recorded under is one the sampler keeps: the decision was the sampler's, on that id.
    const ratio = new TraceIdRatioBasedSampler(0.25);
    for (const span of roots) {
      expect(span.parentSpanId).toBe('');
      const { decision } = ratio.shouldSample(ROOT_CONTEXT, span.traceId);
      expect(decision).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    }
    // A dropped request left no trace behind: only the recorded ones name a trace in their log line.
    const lines = requestLogLines(traced).slice(0, requests);
    expect(lines).toHaveLength(requests);
    const named = lines.filter((line) => line.trace_id !== undefined).map((line) => line.trace_id);
    expect(named.sort()).toEqual(roots.map((span) => span.traceId).sort());
  });

  it('follows the caller when a parent comes with the request, whatever the root sampler says', async () => {
    traced = await startTracedServer({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    const sampledCaller = callerTraceparent();
    const unsampledCaller = callerTraceparent();
    await whoami(traced, sampledCaller.header);
    await whoami(traced, unsampledCaller.header.replace(/-01$/, '-00'));
    await whoami(traced);

    const recorded = await whoamiSpansSoFar(traced);
    expect(recorded.map((span) => span.traceId)).toEqual([sampledCaller.traceId]);
    expect(recorded[0]!.parentSpanId).toBe(sampledCaller.parentId);
  });
});
