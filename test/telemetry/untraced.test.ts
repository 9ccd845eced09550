import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../support/databases.ts';
import { freePort } from '../support/free-port.ts';
import { startOtlpReceiver } from '../support/otlp-receiver.ts';
import { waitFor } from '../support/wait-for.ts';
import { ADMIN, clientAddress, createKey, signIn, startInstance, type Instance } from '../support/instances.ts';
import { otelEnv } from './trace-kit.ts';

const MODULE_LOG = fileURLToPath(new URL('../support/module-log.mjs', import.meta.url));
const SDK_MODULE = /node_modules\/(@opentelemetry\/(sdk-|exporter-|instrumentation)|@fastify\/otel)/;

/** Serves with `env`, stops, and returns the CommonJS modules the process had loaded. */
async function modulesLoadedBy(env: Record<string, string>): Promise<string[]> {
  const log = join(mkdtempSync(join(tmpdir(), 'airkey-modules-')), 'modules.txt');
  const server = await startInstance('module log', await freshPostgresUrl(), {
    ...env,
    NODE_OPTIONS: `--import ${MODULE_LOG}`,
    AIRKEY_MODULE_LOG: log,
  });
  expect((await fetch(`${server.url}/api/v1/whoami`)).status).toBe(401);
  expect(await server.stop()).toBe(0);
  return readFileSync(log, 'utf8').split('\n');
}

async function whoamiTimes(server: Instance, count: number): Promise<number[]> {
  const session = await signIn(server, ADMIN.email);
  const key = await createKey(session, server);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/whoami`, {
      headers: { 'x-api-key': key.secret, 'x-forwarded-for': clientAddress() },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK module without OTEL variables', async () => {
    const untraced = await modulesLoadedBy({});
    expect(untraced.some((path) => path.includes('/node_modules/fastify/'))).toBe(true);
    expect(untraced.filter((path) => SDK_MODULE.test(path))).toEqual([]);
  }, 120_000);

  it('loads no SDK module with OTEL_SDK_DISABLED=true, an endpoint notwithstanding', async () => {
    const disabled = await modulesLoadedBy({
      OTEL_SDK_DISABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(disabled.filter((path) => SDK_MODULE.test(path))).toEqual([]);
  }, 120_000);

  it('loads the SDK when an endpoint is set (the check above can fail)', async () => {
    const traced = await modulesLoadedBy({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(traced.some((path) => path.includes('@opentelemetry/sdk-node'))).toBe(true);
  }, 120_000);
});

describe('bad input', () => {
  it.each<{ what: string; variable: Record<string, string>; warning: string }>([
    {
      what: 'an unknown sampler',
      variable: { OTEL_TRACES_SAMPLER: 'sometimes' },
      warning: 'unknown OTEL_TRACES_SAMPLER value \\"sometimes\\"',
    },
    {
      what: 'a batch queue of no spans (read by the export worker)',
      variable: { OTEL_BSP_MAX_QUEUE_SIZE: '0' },
      warning: 'OTEL_BSP_MAX_QUEUE_SIZE (0) is invalid',
    },
  ])(
    'logs the SDK warning for $what and serves untraced',
    async ({ variable, warning }) => {
      const receiver = await startOtlpReceiver();
      const server = await startInstance('invalid variable', await freshPostgresUrl(), otelEnv(receiver.url, variable));
      try {
        expect(server.output()).toContain(warning);
        expect(server.output()).toContain('tracing is off');
        await whoamiTimes(server, 3);
        // A graceful stop flushes whatever tracing holds: after it, anything exported has arrived.
        expect(await server.stop()).toBe(0);
        expect(receiver.bodies).toEqual([]);
      } finally {
        await server.stop();
        await receiver.close();
      }
    },
    120_000,
  );

  it('answers quickly with an unreachable collector, and warns once', async () => {
    const closedPort = await freePort();
    const server = await startInstance(
      'unreachable collector',
      await freshPostgresUrl(),
      otelEnv(`http://127.0.0.1:${closedPort}`),
    );
    try {
      const first = await whoamiTimes(server, 20);
      const failed = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('trace export failed'));
      await waitFor(() => failed().length > 0, { timeoutMs: 30_000, what: 'the export warning' });
      const later = await whoamiTimes(server, 20);
      // A graceful stop flushes the spans of the later requests to the same closed port first.
      expect(await server.stop()).toBe(0);
      expect(failed()).toHaveLength(1);
      // A cached key is answered in about a millisecond; a request waiting on the exporter would take seconds.
      expect(Math.max(...first.slice(1), ...later.slice(1))).toBeLessThan(500);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
