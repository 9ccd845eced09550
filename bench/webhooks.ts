/**
 * Webhook figures (docs/webhooks.md): 1,000 key changes to a receiver that answers at once, timed
 * from the last change's commit until every event has arrived (target ≤ 10 s); and whoami and
 * flights on a server whose endpoint never answers with 100 deliveries pending, against the same
 * server without (target: within 5 %).
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type ServiceRoot } from '../src/app/services.ts';
import { loadConfig } from '../src/config.ts';
import { webhooks } from '../src/db/webhook-tables.ts';
import { signedInAs } from '../test/support/actors.ts';
import { WEBHOOK_EVENT_TYPES } from '../src/shared/event-types.ts';
import { newWebhookSecret } from '../src/webhooks/secret-box.ts';
import type { AirkeyReady } from './airkey-server.ts';
import { AS_NPM_START, interleaved, NPM_START_NODE_FLAGS, startServer } from './measure.ts';
import { atLeast, atMost, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { SYSTEM_ACTOR } from '../src/shared/actor.ts';
import { rowsOf } from '../test/support/rows.ts';

const EVENTS = 1_000;

/** Inside a bench server: an endpoint at `url` for the tenant, and 100 webhook.test events queued to it. */
export async function hungWebhook(services: ServiceRoot, tenantId: string, url: string): Promise<void> {
  await services.database.db.insert(webhooks).values({
    tenantId,
    url,
    events: [...WEBHOOK_EVENT_TYPES],
    secretSealed: services.webhooks.secrets.seal(newWebhookSecret()),
  });
  await services.uow.inTransaction((_tx, _changed, emit) => {
    for (let i = 0; i < 100; i++) emit({ tenantId, type: 'webhook.test', data: { n: i } });
    return Promise.resolve();
  });
}

function listen(server: HttpServer): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`);
    }),
  );
}

/** 1,000 key creations; the receiver counts what arrives. Embedded database, as `npm start` runs. */
export async function thousandEvents(s: Settings): Promise<Row> {
  let received = 0;
  let allArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(204).end();
      if (++received === EVENTS) allArrived();
    });
  });
  const url = await listen(receiver);
  const config = {
    ...loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }),
    dataDir: mkdtempSync(join(tmpdir(), 'airkey-bench-webhooks-')),
    maxKeysPerTenant: 1_000_000,
  };
  const services = await createServices(config);
  await services.start();
  try {
    const tenant = await services.accounts.tenants.create(SYSTEM_ACTOR, {
      name: 'Webhook Air',
      slug: `hooks-${process.pid}`,
    });
    const user = await services.accounts.users.create(SYSTEM_ACTOR, tenant.id, {
      email: `hooks-${process.pid}@example.test`,
      name: 'Bench',
      password: 'bench-password-1',
      roles: ['system_administrator'],
    });
    const actor = signedInAs((await rowsOf(services).users.findById(user.id))!);
    await services.database.db.insert(webhooks).values({
      tenantId: tenant.id,
      url,
      events: [...WEBHOOK_EVENT_TYPES],
      secretSealed: services.webhooks.secrets.seal(newWebhookSecret()),
    });
    s.log(`webhooks: ${EVENTS} key creations to a receiver that answers at once`);
    const started = performance.now();
    for (let i = 0; i < EVENTS; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => services.keys.lifecycle.create(actor, { name: `k${i + j}` })),
      );
    }
    const lastChange = performance.now();
    await arrived;
    const tail = (performance.now() - lastChange) / 1000;
    s.log(
      `    changes took ${fmt((lastChange - started) / 1000, 1)} s; all delivered ${fmt(tail, 2)} s after the last`,
    );
    return {
      what: `webhooks: ${EVENTS} events, last change → all delivered (s)`,
      value: fmt(tail, 2),
      reference: `changes ${fmt((lastChange - started) / 1000, 1)} s`,
      ratio: '',
      measured: { value: tail, ratio: Number.NaN },
      target: atMost(10, 'value', ' s'),
    };
  } finally {
    await services.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/** whoami and flights with an endpoint that never answers and 100 deliveries pending, against none. */
async function hungReceiver(s: Settings): Promise<Row[]> {
  const hung = createServer(() => undefined);
  const url = await listen(hung);
  const env = { ...AS_NPM_START, WEBHOOK_ALLOW_PRIVATE: '1', BENCH_ENGINE: 'pglite' };
  const asServed = { nodeFlags: [...NPM_START_NODE_FLAGS] };
  const quiet = await startServer<AirkeyReady>('./airkey-server.ts', env, undefined, 'server', asServed);
  const burdened = await startServer<AirkeyReady>(
    './airkey-server.ts',
    { ...env, BENCH_HUNG_WEBHOOK: url },
    undefined,
    'server',
    asServed,
  );
  const rows: Row[] = [];
  try {
    for (const path of ['/api/v1/whoami', '/api/v1/flights?limit=50']) {
      s.log(`webhooks: ${path} with a hung receiver and 100 pending deliveries vs without`);
      const spec = (server: AirkeyReady) => ({
        url: `${server.url}${path}`,
        headers: { 'x-api-key': server.key },
        connections: s.connections,
        seconds: s.seconds,
      });
      const pair = await interleaved(spec(burdened.info), spec(quiet.info), s.rounds, s.log);
      rows.push({
        what: `webhooks: ${path.split('?')[0]} with a hung receiver: req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        target: atLeast(0.95),
        bad: pair.bad,
      });
    }
  } finally {
    await Promise.all([quiet.stop(), burdened.stop()]);
    hung.closeAllConnections();
    hung.close();
  }
  return rows;
}

export const webhooksScenario: Scenario = {
  name: 'webhooks',
  title: '9. webhooks',
  engines: ['pglite'],
  alone: true,
  run: async ({ settings }) => [await thousandEvents(settings), ...(await hungReceiver(settings))],
};
