import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMcpServer } from '../support/mcp-server.ts';

const REDOCLY = join(import.meta.dirname, '../../node_modules/@redocly/cli/bin/cli.js');

type LintReport = {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; message: string }>;
};

/** Redocly's recommended ruleset on the document a running server serves, not on a checked-in copy. */
describe('the served OpenAPI document under Redocly lint (recommended rules)', () => {
  const kit = useMcpServer('pglite', { publicUrl: 'https://airkey.demo-airways.test' });
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'airkey-openapi-lint-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports 0 errors and 0 warnings', async () => {
    const response = await fetch(new URL('/api/v1/openapi.json', kit.server.url));
    expect(response.status).toBe(200);
    writeFileSync(join(dir, 'openapi.json'), await response.text());
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    const lint = spawnSync(
      process.execPath,
      [REDOCLY, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as LintReport;
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(lint.status, lint.stderr).toBe(0);
  });

  it('names every operation, lists the configured public URL and a license', async () => {
    const document = (await (await fetch(new URL('/api/v1/openapi.json', kit.server.url))).json()) as {
      servers: Array<{ url: string }>;
      info: { license?: { name: string } };
      paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    };
    expect(document.servers.map((server) => server.url)).toEqual(['https://airkey.demo-airways.test']);
    expect(document.info.license?.name).toBeTruthy();
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.map((operation) => operation.operationId).sort()).toEqual([
      'getFlight',
      'listFlights',
      'reportLeakedKeys',
      'whoami',
    ]);
    expect(operations.every((operation) => operation.summary)).toBe(true);
  });

  it('configures the docs page with X-API-Key preselected and without the hosted-service buttons', async () => {
    const page = await (await fetch(new URL('/docs/', kit.server.url))).text();
    const configuration = JSON.parse(
      /createApiReference\('#app', (\{[\s\S]*?\})\)\s*<\/script>/.exec(page)?.[1] ?? '{}',
    ) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      url: '/api/v1/openapi.json',
      authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
      agent: { disabled: true }, // "Ask AI"
      mcp: { disabled: true }, // "Generate MCP"
      showDeveloperTools: 'never', // the toolbar with "Deploy" and "Share"
      telemetry: false,
    });
  });
});
