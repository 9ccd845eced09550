import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { freePort } from '../../support/free-port.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { approveInBrowser } from '../../support/sdk-oauth-kit.ts';

const CLI = join(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

/**
 * The MCP conformance suite's authorization-server scenarios against a real server
 * (`conformance authorization`): the metadata endpoint, and the code grant, whose printed URL the
 * test follows as a person would (signed in, approving on the consent page).
 */
describe('the MCP conformance suite, authorization server scenarios', () => {
  let h: Harness;

  beforeAll(async () => {
    const port = await freePort();
    h = await createHarness({
      now: new Date(),
      config: { port, publicUrl: `http://127.0.0.1:${port}` },
      app: { plugins: [mcpRoutes] },
    });
    await h.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => h.close());

  /** Runs the CLI; `onLine` sees its output as it comes. Resolves with the exit code and all output. */
  function conformance(args: string[], onLine: (line: string) => void = () => {}) {
    const child = spawn(process.execPath, [CLI, 'authorization', '--url', `${h.config.publicUrl}/oauth`, ...args]);
    let output = '';
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) onLine(line);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    return new Promise<{ code: number | null; output: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, output })),
    );
  }

  it('passes authorization-server-metadata-endpoint with no warning', async () => {
    const { code, output } = await conformance(['--scenario', 'authorization-server-metadata-endpoint']);
    expect(output).toMatch(/Passed: 2\/2, 0 failed, 0 warnings/);
    expect(output).not.toMatch(/WARNING|FAILURE/);
    expect(code, output).toBe(0);
  }, 120_000);

  // Without --scenario the runner runs both: the code grant reads the metadata scenario's result.
  it('passes authorization-code-grant with --resource after a scripted sign-in and approval', async () => {
    const port = await freePort();
    const registered = await h.app.inject({
      method: 'POST',
      url: '/oauth/reg',
      payload: {
        client_name: 'Conformance runner',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        token_endpoint_auth_method: 'none',
      },
    });
    const clientId = registered.json<{ client_id: string }>().client_id;
    const person = await h.signedIn();
    let followed: Promise<void> | undefined;
    const { code, output } = await conformance(
      ['--client-id', clientId, '--resource', `${h.config.publicUrl}/mcp`, '--port', String(port)],
      (line) => {
        if (followed || !line.startsWith(`${h.config.publicUrl}/oauth/auth?`)) return;
        // The person's browser: sign-in is done, approve, then land on the runner's callback.
        followed = approveInBrowser(h, person, new URL(line.trim())).then(async (callback) => {
          await fetch(callback);
        });
      },
    );
    await followed;
    expect(output).toMatch(/authorization-code-grant: 1 passed, 0 failed/);
    expect(output).toMatch(/Total: 3 passed, 0 failed/);
    expect(output).not.toMatch(/WARNING|FAILURE/);
    expect(code, output).toBe(0);
  }, 180_000);
});
