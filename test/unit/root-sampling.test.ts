import { ROOT_CONTEXT } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldIdBytes, ratioBound, RootSampling } from '../../src/telemetry/spans/root-sampling.ts';

const sdkKeeps = (ratio: number, traceId: string) =>
  new TraceIdRatioBasedSampler(ratio).shouldSample(ROOT_CONTEXT, traceId).decision ===
  SamplingDecision.RECORD_AND_SAMPLED;

const ratios = fc.oneof(fc.constantFrom(0, 1, 0.1, 0.25, 0.5), fc.double({ min: 0, max: 1, noNaN: true }));

describe('root sampling on the trace id bytes', () => {
  it("decides as the SDK's ratio sampler does for the id the bytes spell", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), ratios, (raw, ratio) => {
        const bytes = Buffer.from(raw);
        const keptHere = foldIdBytes(bytes, 0) < ratioBound(ratio);
        const traceId = bytes.toString('hex');
        // All zeroes is no trace id: the SDK drops it, and RootSampling never hands it out.
        if (/^0+$/.test(traceId)) return;
        expect(keptHere).toBe(sdkKeeps(ratio, traceId));
      }),
      { numRuns: 5_000 },
    );
  });

  it('hands out only ids the SDK keeps, at about the ratio', () => {
    const sampling = new RootSampling(0.1);
    let kept = 0;
    for (let draw = 0; draw < 20_000; draw++) {
      const traceId = sampling.keep();
      if (traceId === undefined) continue;
      kept++;
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(sdkKeeps(0.1, traceId)).toBe(true);
    }
    // 2,000 expected; five standard deviations (~42 each) either side.
    expect(kept).toBeGreaterThan(1_790);
    expect(kept).toBeLessThan(2_210);
  });

  it('keeps every request at 1 and none at 0', () => {
    const all = new RootSampling(1);
    const none = new RootSampling(0);
    for (let draw = 0; draw < 1_000; draw++) {
      expect(all.keep()).toMatch(/^[0-9a-f]{32}$/);
      expect(none.keep()).toBeUndefined();
    }
  });
});
