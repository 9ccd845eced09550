/**
 * The benchmark's server process: a real airkey app on a throwaway PGlite database, with one
 * tenant, one System Administrator and one key. It also mounts /bench/whoami-unchecked, the same
 * whoami handler with that key's principal fixed and no key check, so both sides differ only in
 * the check. Reports {url, key} to the parent over IPC.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildApp } from '../src/http/app.ts';
import { whoamiRoute } from '../src/http/routes/public-api.ts';
import { userActor } from '../src/shared/actor.ts';

const config = { ...loadConfig({}), dataDir: mkdtempSync(join(tmpdir(), 'airkey-bench-')), logLevel: 'warn', port: 0 };
const services = await createServices(config);
await services.start();
const tenant = await services.tenants.create({ name: 'Bench Air', slug: 'bench' });
const admin = await services.users.create(tenant.id, { email: 'bench@example.test', name: 'Bench', password: 'bench-password-1', roles: ['system_administrator'] });
const { secret } = await services.keys.create(userActor(await services.users.requireByEmail(admin.email)), { name: 'bench' });
const verdict = await services.keyCheck.check(secret, 'setup');
if (!verdict.ok) throw new Error(`bench key rejected: ${verdict.reason}`);

const principal = verdict.principal;
// The same whoami route, schema and handler with the principal fixed and no key check.
const uncheckedWhoami = async (scope: FastifyInstance) => {
  scope.withTypeProvider<ZodTypeProvider>().get('/bench/whoami-unchecked', {
    ...whoamiRoute,
    schema: { ...whoamiRoute.schema, hide: true },
    onRequest: async (request) => void (request.principal = principal),
  });
};
const app = await buildApp(services, { plugins: [uncheckedWhoami] });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.send?.({ url: `http://127.0.0.1:${port}`, key: secret });
process.on('disconnect', () => void app.close().then(() => services.close()).finally(() => process.exit(0)));
