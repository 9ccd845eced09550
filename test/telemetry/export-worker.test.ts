import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/node-process.ts';
import { startOtlpReceiver } from '../support/otlp-receiver.ts';

const EXPORTER = new URL('../../src/telemetry/worker-exporter.ts', import.meta.url).href;

/** Runs `body` in a Node process of its own, after starting a worker exporter aimed at `endpoint`. */
function runWithExporter(endpoint: string, body: string): Promise<{ code: number; output: string }> {
  const script = `
    const { WorkerExporter } = await import(${JSON.stringify(EXPORTER)});
    const exporter = await WorkerExporter.start({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: ${JSON.stringify(endpoint)} },
      level: 30,
      onDiag() {},
      onFailure() {},
    });
    ${body}`;
  // A file, not --eval: the worker would inherit --input-type and refuse its own module.
  const file = join(mkdtempSync(join(tmpdir(), 'airkey-export-worker-')), 'run.mjs');
  writeFileSync(file, script);
  return runNode([file]);
}

describe('the export worker', () => {
  it('answers a shutdown even when nothing else keeps the process alive', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { code, output } = await runWithExporter(
        receiver.url,
        "await exporter.forceFlush(); await exporter.shutdown(); console.log('shut down');",
      );
      expect(output).toContain('shut down');
      expect(code).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('does not keep an otherwise finished process alive while idle', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { code, output } = await runWithExporter(receiver.url, "console.log('started');");
      expect(output).toContain('started');
      expect(code).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
