import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src/keys/format/secret.ts';

const BIN = fileURLToPath(new URL('../../bin/airkey', import.meta.url));

type Run = { code: number | null; stdout: string; stderr: string };

/** `airkey scan …` run from `cwd`, as a pre-commit hook would run it. */
function scan(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'scan', ...args], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const hint = (key: string) => `ask_…${key.slice(-4)}`;
const wrongChecksum = (key: string) => key.slice(0, 67) + (key.endsWith('A') ? 'B' : 'A');

let root: string;
const put = (path: string, content: string | Buffer) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
const inEnv = generateSecret();
const inKeptLog = generateSecret();
const inNested = generateSecret();
const everyKeyInTheTree: string[] = [inEnv, inKeptLog, inNested];
const ignoredKeys: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'airkey-scan-'));
  const ignored = () => {
    const key = generateSecret();
    ignoredKeys.push(key);
    return key;
  };
  put('.env', `# local settings\nAIRKEY_KEY=${inEnv}\nDEBUG=1\n`);
  put('.gitignore', '# build output\n*.log\n!keep.log\n/build\nsecrets/\ndocs/**/draft.md\n');
  put('app.log', `token ${ignored()}\n`);
  put('keep.log', `${inKeptLog}\n`);
  put('build/out.txt', ignored());
  put('secrets/prod.env', ignored());
  put('docs/a/b/draft.md', ignored());
  put('sub/.gitignore', 'local.txt\n');
  put('sub/local.txt', ignored());
  put('sub/ok.txt', `one\ntwo\n  "key": "${inNested}",\n`);
  put('picture.bin', Buffer.concat([Buffer.from([0x89, 0x50, 0x00, 0x01]), Buffer.from(`\n${ignored()}\n`)]));
  put('node_modules/pkg/index.js', `export const k = '${ignored()}';\n`);
  put('.git/config', `[airkey]\n\tkey = ${ignored()}\n`);
  const lookAlike = generateSecret();
  put(
    'lookalikes/config.txt',
    [
      `wrong=${wrongChecksum(lookAlike)}`,
      `short=${lookAlike.slice(0, 67)}`,
      `long=${lookAlike}Z`,
      `glued=x${lookAlike}`,
      '',
    ].join('\n'),
  );
  for (let i = 0; i < 1000; i++) put(`many/file-${i}.txt`, `line ${i}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('airkey scan', () => {
  it('finds each key with file:line and hint, never the key, and exits 1', async () => {
    const run = await scan(root, []);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.trimEnd().split('\n').sort()).toEqual(
      [`.env:2: ${hint(inEnv)}`, `keep.log:1: ${hint(inKeptLog)}`, `sub/ok.txt:3: ${hint(inNested)}`].sort(),
    );
    for (const key of [...everyKeyInTheTree, ...ignoredKeys])
      expect(run.stdout + run.stderr).not.toContain(key.slice(4, 40));
    expect(run.stderr.trimEnd().split('\n')).toEqual(['airkey: found 3 airkey keys in 1006 files scanned; roll them']);
  });

  it('skips gitignored files (nested, anchored, **, folders), binaries, .git and node_modules', async () => {
    const run = await scan(root, ['--json']);
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as {
      findings: Array<{ file: string; line: number; hint: string }>;
      files_scanned: number;
      skipped: { binary: number; too_large: number };
    };
    expect(out.findings.map((f) => f.file).sort()).toEqual(['.env', 'keep.log', 'sub/ok.txt']);
    expect(out.findings.find((f) => f.file === '.env')).toEqual({ file: '.env', line: 2, hint: hint(inEnv) });
    expect(out.skipped).toEqual({ binary: 1, too_large: 0 });
    // .env, .gitignore, keep.log, sub/.gitignore, sub/ok.txt, lookalikes/config.txt + 1,000 in many/.
    expect(out.files_scanned).toBe(1006);
    for (const ignored of ignoredKeys) expect(run.stdout).not.toContain(hint(ignored));
  });

  it('takes a wrong checksum, a 67-character string and a 69-character run for what they are: not keys (exit 0)', async () => {
    const run = await scan(root, ['lookalikes']);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('shows progress on stderr every 1,000 files with --progress', async () => {
    const run = await scan(root, ['many', '--progress']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('airkey scan: 1000 files scanned…\n');
  });

  it('exits 2 with a one-line reason for a missing path, a bad --report URL or an unknown option', async () => {
    const missing = await scan(root, ['.env', 'no-such-dir']);
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: 'airkey: no-such-dir: no such file or directory\n' });
    const badUrl = await scan(root, ['.env', '--report', 'ftp://example.test']);
    expect(badUrl).toMatchObject({ code: 2, stdout: '' });
    expect(badUrl.stderr).toMatch(/^airkey: --report needs an http\(s\) URL[^\n]*\n$/);
    const unknownOption = await scan(root, ['--no-such-option']);
    expect(unknownOption).toMatchObject({ code: 2, stdout: '' });
    expect(unknownOption.stderr).toMatch(/^airkey: unknown option '--no-such-option'\n$/);
  }, 90_000); // three CLI processes, one after another
});

describe('airkey scan --report', () => {
  let server: Server;
  let base: string;
  const requests: Array<{ method?: string; url?: string; type?: string; body: { keys: string[] } }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { keys: string[] };
        requests.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
        res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ received: body.keys.length }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts each key found once, in batches of at most 100, to /api/v1/leaked-keys and says how many', async () => {
    const many = Array.from({ length: 150 }, () => generateSecret());
    put('report/keys.txt', `${many.join('\n')}\n${inEnv}\n`);
    put('report/again.env', `${inEnv}\n`);
    const run = await scan(root, ['report', '--report', `${base}/`]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(152 + 1);
    expect(run.stdout).toContain(`Reported 151 keys to ${base}.\n`);
    expect(requests.map((r) => [r.method, r.url, r.type, r.body.keys.length])).toEqual([
      ['POST', '/api/v1/leaked-keys', 'application/json', 100],
      ['POST', '/api/v1/leaked-keys', 'application/json', 51],
    ]);
    expect(new Set(requests.flatMap((r) => r.body.keys))).toEqual(new Set([...many, inEnv]));
  });

  it('sends nothing when no key was found', async () => {
    requests.length = 0;
    const run = await scan(root, ['lookalikes', '--report', base, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ findings: [], reported: 0 });
    expect(requests).toEqual([]);
  });

  it('still lists the findings and explains in one line when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await scan(root, ['.env', '--report', `http://127.0.0.1:${port}`]);
    expect(run).toEqual({
      code: 1,
      stdout: `.env:2: ${hint(inEnv)}\n`,
      stderr: `airkey: could not send the leak report to http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    });
  });
});
