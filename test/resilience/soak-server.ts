import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN = { email: 'admin@soak.test', password: 'a-long-soak-password' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A soak's `airkey serve`, with its inspector on a loopback port so its heap can be read after GC. */
export type Server = { name: string; url: string; child: ChildProcess; inspectorPort: number };

export async function start(name: string, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'airkey-soak-')),
    AIRKEY_ADMIN_EMAIL: ADMIN.email,
    AIRKEY_ADMIN_PASSWORD: ADMIN.password,
    AIRKEY_DEMO: '0',
    TRUSTED_PROXIES: '127.0.0.1',
  };
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectorPort}`, 'bin/airkey', 'serve'], {
    cwd: ROOT,
    env,
    // The inspector announces itself on stderr; everything else the server says there is kept.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString().replace(/^(Debugger listening on|For help, see).*\n/gm, '');
    if (text) process.stderr.write(text);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while ((await fetch(`${url}/readyz`).catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not become ready`);
    await sleep(50);
  }
  return { name, url, child, inspectorPort };
}
