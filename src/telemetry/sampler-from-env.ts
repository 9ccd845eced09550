import { diag } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace';

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the OpenTelemetry specification defines them
 * (default `parentbased_always_on`). An unknown sampler or a ratio outside 0–1 is a diagnostic
 * warning, which makes airkey run untraced rather than half-configured (sdk.ts).
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv): Sampler {
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
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      diag.warn(`unknown OTEL_TRACES_SAMPLER value "${name}"`);
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
