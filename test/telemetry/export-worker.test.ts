import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/node-process.ts';
import { startOtlpReceiver } from '../support/otlp-receiver.ts';

const PROCESSOR = new URL('../../src/telemetry/worker-span-processor.ts', import.meta.url).href;
const SDK_TRACE = import.meta.resolve('@opentelemetry/sdk-trace');

/** Runs `body` in a Node process of its own, after starting a worker span processor aimed at `endpoint`. */
function runWithProcessor(endpoint: string, body: string): Promise<{ code: number; output: string }> {
  const script = `
    const { WorkerSpanProcessor } = await import(${JSON.stringify(PROCESSOR)});
    const processor = await WorkerSpanProcessor.start({
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
      const { code, output } = await runWithProcessor(
        receiver.url,
        "await processor.forceFlush(); await processor.shutdown(); console.log('shut down');",
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
      const { code, output } = await runWithProcessor(receiver.url, "console.log('started');");
      expect(output).toContain('started');
      expect(code).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('sends on shutdown the spans that ended just before it, still waiting on the request thread', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { code, output } = await runWithProcessor(
        receiver.url,
        `const { TracerProvider } = await import(${JSON.stringify(SDK_TRACE)});
        const tracer = new TracerProvider({ spanProcessors: [processor] }).getTracer('airkey-test');
        for (const name of ['first', 'second', 'third']) tracer.startSpan(name, { attributes: { 'airkey.order': name } }).end();
        await processor.shutdown();
        console.log('shut down');`,
      );
      expect(output).toContain('shut down');
      expect(code).toBe(0);
      expect(receiver.spans.map((span) => [span.name, span.attributes['airkey.order']])).toEqual([
        ['first', 'first'],
        ['second', 'second'],
        ['third', 'third'],
      ]);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
