import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSecret } from '../../../src/db/shared-secrets.ts';
import { loadSealingKey, SEALING_KEY_FILE } from '../../../src/webhooks/sealing-key.ts';
import { SecretBox } from '../../../src/webhooks/secret-box.ts';
import { freshDataDir } from '../../support/databases.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

/** docs/webhooks.md (How secrets are stored): where the key that seals webhook secrets comes from. */
describe('the webhook sealing key', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ engine: 'postgres' });
  });
  afterAll(async () => h.close());
  const base = () => ({
    storedKey: () => sharedSecret(h.services.database.db, 'webhook_sealing_key'),
    dataDir: freshDataDir(),
    warn: () => undefined,
  });

  it('uses AIRKEY_SECRET_KEY when set, in either mode, and says nothing', async () => {
    const key = Buffer.alloc(32, 9);
    const warnings: string[] = [];
    const box = await loadSealingKey({
      ...base(),
      secretKey: key.toString('base64'),
      databaseKind: 'postgres',
      warn: (message) => warnings.push(message),
    });
    expect(new SecretBox(key).open(box.seal('whsec_x'))).toBe('whsec_x');
    expect(warnings).toEqual([]);
  });

  it('keeps an embedded key in DATA_DIR/sealing.key (0600), created once and reused', async () => {
    const options = { ...base(), secretKey: undefined, databaseKind: 'pglite' as const };
    const first = await loadSealingKey(options);
    const path = join(options.dataDir, SEALING_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = await loadSealingKey(options);
    expect(again.open(first.seal('whsec_y'))).toBe('whsec_y');
  });

  it('keeps the key in the database on PostgreSQL without the variable, and warns that a dump can sign', async () => {
    const warnings: string[] = [];
    const options = { ...base(), secretKey: undefined, databaseKind: 'postgres' as const };
    const a = await loadSealingKey({ ...options, warn: (message) => warnings.push(message) });
    const b = await loadSealingKey(options);
    expect(b.open(a.seal('whsec_z'))).toBe('whsec_z');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/database dump alone suffices to sign/);
  });
});
