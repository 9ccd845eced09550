import { diag } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace';

/** The sampler, and the share of requests without a parent it keeps (by trace id, as traceidratio does). */
export type SamplerChoice = { sampler: Sampler; rootRatio: number };

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the OpenTelemetry specification defines them
 * (default `parentbased_always_on`). An unknown sampler or a ratio outside 0–1 is a diagnostic
 * warning, which makes airkey run untraced rather than half-configured (sdk.ts).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): SamplerChoice {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const ratio = () => {
    const argument = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    if (!argument) return 1;
    const value = Number(argument);
    if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
    diag.warn(`OTEL_TRACES_SAMPLER_ARG "${argument}" is not a ratio from 0 to 1`);
    return 1;
  };
  switch (name) {
    case 'always_on':
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
    case 'always_off':
      return { sampler: new AlwaysOffSampler(), rootRatio: 0 };
    case 'traceidratio': {
      const rootRatio = ratio();
      return { sampler: new TraceIdRatioBasedSampler(rootRatio), rootRatio };
    }
    case 'parentbased_always_on':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
    case 'parentbased_always_off':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), rootRatio: 0 };
    case 'parentbased_traceidratio': {
      const rootRatio = ratio();
      return { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(rootRatio) }), rootRatio };
    }
    default:
      diag.warn(`unknown OTEL_TRACES_SAMPLER value "${name}"`);
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
  }
}
