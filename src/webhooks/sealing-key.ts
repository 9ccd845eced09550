import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SecretBox } from './secret-box.ts';

export type SealingKeyOptions = {
  /** AIRKEY_SECRET_KEY: base64 of 32 bytes (already checked by loadConfig). */
  secretKey: string | undefined;
  /** The embedded mode keeps its key in a file beside the database, never inside it. */
  databaseKind: 'pglite' | 'postgres';
  dataDir: string;
  /** A key every instance on the database shares (base64url), created on first use. */
  storedKey: () => Promise<string>;
  /** Said once, when the key sits in the database itself. */
  warn: (message: string) => void;
};

export const SEALING_KEY_FILE = 'sealing.key';

/**
 * The key webhook secrets are sealed with (docs/webhooks.md (Secrets)). The environment wins; the
 * embedded mode otherwise keeps a key file of its own (mode 0600) that a copy of the database alone
 * does not contain. On a shared PostgreSQL without the variable there is no place every instance
 * shares but the database, so the key lives there and a dump suffices to sign: a warning says so.
 */
export async function loadSealingKey(options: SealingKeyOptions): Promise<SecretBox> {
  if (options.secretKey) return new SecretBox(Buffer.from(options.secretKey, 'base64'));
  if (options.databaseKind === 'pglite') return new SecretBox(await keyFile(options.dataDir));
  options.warn(
    'AIRKEY_SECRET_KEY is not set: webhook secrets are sealed with a key kept in the database, so a ' +
      'database dump alone suffices to sign webhooks. Set AIRKEY_SECRET_KEY (base64 of 32 bytes) on every instance.',
  );
  return new SecretBox(Buffer.from(await options.storedKey(), 'base64url'));
}

/** Created once: `wx` fails when another process made it first, and then its key is the one. */
async function keyFile(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, SEALING_KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(path, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold base64 of 32 bytes`);
  return key;
}
