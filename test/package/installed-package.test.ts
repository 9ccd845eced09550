import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, signIn, type Instance } from '../support/instances.ts';
import { freePort } from '../support/free-port.ts';
import { waitFor } from '../support/wait-for.ts';
import { envOf, execForm, only, stagesOf, type Stage } from './container-recipe.ts';

/**
 * The package as a user installs it, by the Dockerfile's own runtime stage run outside a container:
 * `npm pack` (its prepack builds the back office and dist/) in a copy of the checkout, then the
 * runtime stage's WORKDIR, COPY, ENV, RUN, HEALTHCHECK and CMD in an empty folder, with production
 * dependencies only. What it then serves is checked as a client would: the API, MCP, the back office.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { email: 'admin@package.test', password: 'a-long-package-password' };

let runtime: Stage;
let home: string;
let tarball: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
let instance: Instance;
const printed: string[] = [];

/** A copy of what git would hand a new clone, with this checkout's node_modules beside it. */
function copyCheckout(into: string): void {
  const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.split('\n');
  for (const file of files.filter((name) => name && existsSync(join(ROOT, name)))) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(ROOT, file), join(into, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'));
}

function sh(command: string, cwd: string, environment: NodeJS.ProcessEnv): void {
  const result = spawnSync('sh', ['-c', command], { cwd, env: environment, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/** A command of the recipe on this machine's Node 24+ (the one running the tests), from the runtime WORKDIR. */
function run(argv: string[], environment = env): ReturnType<typeof spawnSync> {
  const [program, ...args] = argv;
  return spawnSync(program === 'node' ? process.execPath : program!, args, {
    cwd: home,
    env: environment,
    encoding: 'utf8',
  });
}

beforeAll(async () => {
  const stages = stagesOf(join(ROOT, 'Dockerfile'));
  runtime = stages.find((stage) => stage.name === 'runtime')!;
  const checkout = mkdtempSync(join(tmpdir(), 'airkey-pack-'));
  home = mkdtempSync(join(tmpdir(), 'airkey-installed-'));
  try {
    copyCheckout(checkout);
    sh('npm pack --silent --pack-destination .', checkout, process.env);
    const packed = readdirSync(checkout).find((name) => /^airkey-.*\.tgz$/.test(name))!;
    tarball = join(mkdtempSync(join(tmpdir(), 'airkey-tarball-')), packed);
    copyFileSync(join(checkout, packed), tarball);
    // COPY --from=build /tmp/airkey.tgz ./airkey.tgz
    const [copy] = only(runtime, 'COPY');
    copyFileSync(tarball, join(home, copy!.rest.split(/\s+/).at(-1)!));
    // The recipe's environment, listening on loopback here; npm may answer from its cache.
    env = {
      ...process.env,
      ...envOf(runtime),
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      AIRKEY_ADMIN_EMAIL: ADMIN.email,
      AIRKEY_ADMIN_PASSWORD: ADMIN.password,
      npm_config_prefer_offline: 'true',
    };
    delete env.DATABASE_URL;
    delete env.DATA_DIR;
    for (const { rest } of only(runtime, 'RUN')) sh(rest, home, env);
  } finally {
    rmSync(checkout, { recursive: true, force: true, maxRetries: 3 });
  }
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
});

describe('the packed package, installed by the container recipe', () => {
  it('is built on node:24-slim and runs as a non-root user', () => {
    expect(runtime.from).toBe('node:24-slim');
    const users = only(runtime, 'USER').map((user) => user.rest);
    expect(users.at(-1)).toBe('node');
  });

  it('ships the compiled server, the built back office and the migrations, and no sources or tests', () => {
    const listing = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing).toContain('package/web/dist/index.html');
    expect(listing).toContain('package/drizzle/meta/_journal.json');
    expect(listing).toContain('package/bin/airkey');
    expect(listing.filter((path) => /^package\/(src|test|bench|web\/src)\//.test(path))).toEqual([]);
    expect(listing.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
    console.log(`tarball: ${Math.round(statSync(tarball).size / 1024)} KiB, ${listing.filter(Boolean).length} files`);
  });

  it('installed no dev dependency', () => {
    const installed = readdirSync(join(home, 'node_modules'));
    for (const tool of ['vite', 'vitest', 'typescript', 'tsx', 'eslint', 'drizzle-kit', 'react'])
      expect(installed).not.toContain(tool);
  });

  it('migrates with `npx airkey migrate`, idempotently', () => {
    for (let time = 0; time < 2; time++) {
      const migrate = run(['npx', '--no-install', 'airkey', 'migrate']);
      expect(migrate.stderr).toBe('');
      expect(migrate.status).toBe(0);
    }
    // Two cold `npx` starts of the installed package: seconds alone, close to a minute on two busy cores.
  }, 120_000);

  it("answers the recipe's health check only once it serves, and then serves the API, MCP and the back office", async () => {
    const healthCheck = execForm(only(runtime, 'HEALTHCHECK')[0]!.rest);
    expect(run(healthCheck).status).toBe(1);

    const [program, ...args] = execForm(only(runtime, 'CMD')[0]!.rest);
    server = spawn(program === 'node' ? process.execPath : program!, args, {
      cwd: home,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => printed.push(chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => printed.push(chunk.toString()));
    const url = `http://127.0.0.1:${env.PORT}`;
    await waitFor(() => run(healthCheck).status === 0, { timeoutMs: 60_000, everyMs: 200, what: 'a healthy server' });
    instance = { name: 'installed', url } as Instance;

    const session = await signIn(instance, ADMIN.email, ADMIN.password);
    const { secret } = await createKey(session, instance, 'installed package');
    const flights = await fetch(`${url}/api/v1/flights?limit=2`, { headers: { 'x-api-key': secret } });
    expect(flights.status).toBe(200);
    expect(((await flights.json()) as { data: unknown[] }).data).toHaveLength(2);

    const mcp = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': secret,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('list_flights');

    const page = await fetch(`${url}/backoffice/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(new URL(script!, url))).status).toBe(200);
    expect(printed.join('')).not.toMatch(/ask_[A-Za-z0-9]{20,}/);
  }, 120_000);
});
