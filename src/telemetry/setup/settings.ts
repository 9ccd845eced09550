/**
 * Whether the standard OpenTelemetry variables ask for traces. Read before anything of the SDK is
 * loaded: with no exporter or endpoint named (or OTEL_SDK_DISABLED=true) the SDK never loads.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase());
  if (exporters.includes('none')) return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ||
    exporters.includes('otlp'),
  );
}

/** The service name spans carry unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names another. */
export const DEFAULT_SERVICE_NAME = 'airkey';
