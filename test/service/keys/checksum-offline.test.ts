import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createServices, type ServiceRoot } from '../../../src/app/services.ts';
import { loadConfig, type Config } from '../../../src/config.ts';
import { apiKeys } from '../../../src/db/schema.ts';
import { hasValidChecksum } from '../../../src/keys/format/checksum.ts';
import { KeyRepository } from '../../../src/keys/key-repository.ts';
import { digestSecret, generateSecret, hintOf, KEY_ALPHABET } from '../../../src/keys/format/secret.ts';
import { type UserActor } from '../../../src/shared/actor.ts';
import { signedInAs } from '../../support/actors.ts';
import { ManualClock } from '../../support/manual-clock.ts';
import { waitFor } from '../../support/wait-for.ts';
import { ENGINES, storageFor, type Engine } from '../../support/databases.ts';
import { TEST_PASSWORD } from '../../support/harness.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { rowsOf } from '../../support/rows.ts';

/** A secret as minted before checksums: `ask_` + 64 random characters, whose tail is no checksum. */
function legacySecret(): string {
  for (;;) {
    const body = [...randomBytes(64)].map((byte) => KEY_ALPHABET[byte % KEY_ALPHABET.length]).join('');
    const secret = `ask_${body}`;
    if (!hasValidChecksum(secret)) return secret;
  }
}

/** A typo in a real key's checksum: well-formed, wrong checksum. */
function withWrongChecksum(secret: string): string {
  const last = secret.at(-1) === 'A' ? 'B' : 'A';
  return secret.slice(0, -1) + last;
}

/** Takes the database away for real (as test/http/outage.test.ts does); returns how to bring it back. */
async function takeDatabaseDown(services: ServiceRoot, config: Config, engine: Engine): Promise<() => Promise<void>> {
  if (engine === 'pglite') {
    await services.database.close();
    return async () => {};
  }
  const name = new URL(config.databaseUrl!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`alter database ${name} allow_connections false`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  // The outage has reached this instance once its change-feed listener has lost its connection.
  await waitFor(() => !services.changes.listening, { timeoutMs: 5_000, what: 'the listener to notice the outage' });
  return async () => {
    await admin.query(`alter database ${name} allow_connections true`);
    await admin.end();
  };
}

describe.each(ENGINES)('a wrong checksum, with and without keys minted before checksums (%s)', (engine) => {
  let config: Config;
  let services: ServiceRoot;
  let actor: UserActor;
  let legacy: { id: string; secret: string };
  let current: string;
  let bringBack: () => Promise<void> = async () => {};

  beforeAll(async () => {
    config = { ...loadConfig({}), ...(await storageFor(engine)), usageFlushMs: 60_000 };
    services = await createServices(config, { clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
    const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, {
      name: 'Old Tenant',
      slug: `t-${randomBytes(4).toString('hex')}`,
    });
    const user = await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
      email: `${randomBytes(4).toString('hex')}@example.test`,
      name: 'Old User',
      password: TEST_PASSWORD,
      roles: ['system_administrator'],
    });
    actor = signedInAs((await rowsOf(services).users.findById(user.id))!);
    // A key from before checksums exists when the services start.
    const secret = legacySecret();
    const [row] = await services.database.db
      .insert(apiKeys)
      .values({
        tenantId: tenant.id,
        name: 'legacy',
        hint: hintOf(secret),
        secretDigest: digestSecret(secret),
        createdBy: user.id,
        hasChecksum: false,
      })
      .returning();
    legacy = { id: row!.id, secret };
    await services.start();
    current = (await services.keys.lifecycle.create(actor, { name: 'current' })).secret;
  });
  afterAll(async () => {
    await bringBack();
    await services.close().catch(() => {});
  });

  it('keeps accepting a key minted before checksums, and mints new keys with one', async () => {
    expect(services.keys.legacy.noneRemain).toBe(false);
    expect(await services.keys.check.check(legacy.secret, '10.7.0.1')).toMatchObject({ ok: true, keyId: legacy.id });
    expect(hasValidChecksum(current)).toBe(true);
    expect(await services.keys.check.check(current, '10.7.0.1')).toMatchObject({ ok: true });
  });

  it('looks a wrong checksum up while a key without a checksum remains', async () => {
    const lookups = vi.spyOn(KeyRepository.prototype, 'findFactsByDigest');
    try {
      expect(await services.keys.check.check(withWrongChecksum(current), '10.7.0.2')).toEqual({
        ok: false,
        reason: 'api_key_invalid',
      });
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it('refuses a wrong checksum without a cache or database lookup once the last such key is deleted', async () => {
    await services.keys.lifecycle.delete(actor, legacy.id);
    await services.keys.legacy.refresh(); // the change already asked; this waits for the answer
    expect(services.keys.legacy.noneRemain).toBe(true);
    const lookups = vi.spyOn(KeyRepository.prototype, 'findFactsByDigest');
    const missesBefore = services.keys.cache.stats.misses;
    try {
      for (const secret of [withWrongChecksum(current), legacySecret()]) {
        expect(await services.keys.check.check(secret, '10.7.0.3')).toEqual({ ok: false, reason: 'api_key_invalid' });
      }
      expect(lookups).not.toHaveBeenCalled();
      expect(services.keys.cache.stats.misses).toBe(missesBefore);
      // A valid checksum is still checked as before.
      expect(await services.keys.check.check(current, '10.7.0.3')).toMatchObject({ ok: true });
    } finally {
      lookups.mockRestore();
    }
  });

  it('counts an offline refusal as a failed attempt of the client', async () => {
    const client = '10.7.0.4';
    for (let i = 0; i < 20; i++)
      expect(await services.keys.check.check(withWrongChecksum(current), client)).toEqual({
        ok: false,
        reason: 'api_key_invalid',
      });
    expect(await services.keys.check.check(withWrongChecksum(current), client)).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
  });

  it('refuses a wrong checksum as invalid while the database is down, yet an unknown key with a valid checksum stays a fault', async () => {
    bringBack = await takeDatabaseDown(services, config, engine);
    expect(await services.keys.check.check(withWrongChecksum(current), '10.7.0.5')).toEqual({
      ok: false,
      reason: 'api_key_invalid',
    });
    expect(await services.keys.check.check(legacy.secret, '10.7.0.5')).toEqual({
      ok: false,
      reason: 'api_key_invalid',
    });
    await expect(Promise.resolve(services.keys.check.check(generateSecret(), '10.7.0.5'))).rejects.toThrow();
  });
});
