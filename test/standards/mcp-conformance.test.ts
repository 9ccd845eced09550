import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyProxy } from '../mcp/key-proxy.ts';
import { ADMIN, signIn, startInstance, type Instance } from '../support/instances.ts';
import { runNode } from '../support/node-process.ts';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against a real
 * `airkey serve` process with a real key, on the Node that runs the tests (24 or 26), for the
 * requirement set of each revision airkey serves to a current host.
 *
 * The runner cannot send a header, so it talks to a loopback relay that adds X-API-Key: the
 * product has no door for it. What a server with only airkey's three tools cannot be asked is
 * listed, with the reason for each, in mcp-conformance-<revision>.yml; the runner fails on any
 * other failure, and on a listed check that now passes, so the list cannot go stale.
 */
const CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const baselineOf = (revision: string) => join(import.meta.dirname, `mcp-conformance-${revision}.yml`);

describe('the official MCP conformance suite, server mode', () => {
  let server: Instance;
  let relay: Awaited<ReturnType<typeof keyProxy>>;

  beforeAll(async () => {
    server = await startInstance('conformance', undefined, { LOG_LEVEL: 'warn' });
    const admin = await signIn(server, ADMIN.email);
    const created = await admin.request<{ secret: string }>(server, 'POST', '/backoffice/api/api-keys', {
      name: 'conformance runner',
    });
    expect(created.status).toBe(201);
    relay = await keyProxy([server.url], { 'x-api-key': created.body.secret });
  }, 120_000);
  afterAll(async () => {
    await relay?.close();
    await server?.stop();
  });

  it.each(['2026-07-28', '2025-11-25'])(
    'passes every %s requirement a server with these three tools can be asked',
    async (revision) => {
      const { code, output } = await runNode([
        CLI,
        'server',
        '--url',
        relay.url,
        '--requirements',
        revision,
        '--expected-failures',
        baselineOf(revision),
        ...(process.env.CONFORMANCE_OUTPUT ? ['--output-dir', join(process.env.CONFORMANCE_OUTPUT, revision)] : []),
      ]);
      if (process.env.CONFORMANCE_VERBOSE) console.log(output);
      expect(output).toMatch(/passed/i);
      expect(code, output).toBe(0);
    },
    300_000,
  );
});
