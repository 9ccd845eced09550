import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServices } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import { userActor } from '../src/shared/actor.ts';
import { apiKeys } from '../src/db/schema.ts';
import { keyListSchema } from '../src/keys/key-schemas.ts';
import { serializerCompiler } from '../src/http/serializer.ts';
const services = await createServices({
  ...loadConfig({}),
  dataDir: mkdtempSync(join(tmpdir(), 'bo-')),
  maxKeysPerTenant: 100000,
});
await services.start();
const tenant = await services.tenants.create({ name: 'B', slug: 'b' });
await services.users.create(tenant.id, {
  email: 'b@example.test',
  name: 'B',
  password: 'bench-password-1',
  roles: ['system_administrator'],
});
const user = await services.users.requireByEmail('b@example.test');
const actor = userActor(user);
await services.database.db
  .insert(apiKeys)
  .values(
    Array.from({ length: 999 }, (_, i) => ({
      tenantId: tenant.id,
      name: `k${i}`,
      hint: 'ask_…x',
      secretDigest: randomBytes(32).toString('hex'),
      createdBy: user.id,
    })),
  );
const ser = serializerCompiler({ schema: keyListSchema, method: 'GET', url: '/x', httpStatus: '200' } as any) as (
  d: unknown,
) => string;
const time = async (name: string, fn: () => unknown, n = 50) => {
  for (let i = 0; i < 5; i++) await fn();
  const s = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(name, ((performance.now() - s) / n).toFixed(2), 'ms');
};
const list = await services.keys.list(actor);
await time('list service', () => services.keys.list(actor));
await time('list repo', () => (services.keys as any).keys.listForTenant(tenant.id));
await time('serialize fjs', () => ser(list));
await time('JSON.stringify', () => JSON.stringify(list));
await time('create', () => services.keys.create(actor, { name: 'c' }), 50);
await time('session resolve', () => services.sessions.resolve('nonexistent-token'));
await services.close();
