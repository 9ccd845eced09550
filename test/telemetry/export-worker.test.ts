import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/node-process.ts';
import { startOtlpReceiver } from '../support/otlp-receiver.ts';

const PROCESSOR = new URL('../../src/telemetry/export/worker-span-processor.ts', import.meta.url).href;
const SDK_TRACE = import.meta.resolve('@opentelemetry/sdk-trace');
const RESOURCES = import.meta.resolve('@opentelemetry/resources');
const OTEL_API = import.meta.resolve('@opentelemetry/api');

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

  it("waits for a resource's late attributes, and sends them without a warning", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { code, output } = await runWithProcessor(
        receiver.url,
        `const { diag } = await import(${JSON.stringify(OTEL_API)});
        diag.setLogger({ error: (m) => console.log('diag', m), warn: (m) => console.log('diag', m), info() {}, debug() {}, verbose() {} });
        const { resourceFromAttributes } = await import(${JSON.stringify(RESOURCES)});
        const { TracerProvider } = await import(${JSON.stringify(SDK_TRACE)});
        // As the host detector reads the machine's id: a value that arrives after the first spans end.
        const hostId = new Promise((resolve) => setTimeout(() => resolve('machine-4242'), 100));
        const resource = resourceFromAttributes({ 'service.name': 'airkey-test', 'host.id': hostId });
        const tracer = new TracerProvider({ resource, spanProcessors: [processor] }).getTracer('airkey-test');
        for (const name of ['early', 'later']) tracer.startSpan(name).end();
        await processor.shutdown();
        console.log('shut down');`,
      );
      expect(output).toContain('shut down');
      expect(output).not.toContain('diag');
      expect(code).toBe(0);
      expect(receiver.spans.map((span) => span.name)).toEqual(['early', 'later']);
      expect(Buffer.concat(receiver.bodies).includes('machine-4242')).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
