import type { InjectOptions } from 'fastify';
import { generateFlights } from '../../src/flights/flight-seeder.ts';
import { mcpRoutes } from '../../src/mcp/mcp-routes.ts';
import { createHarness } from '../support/harness.ts';
import { listen } from '../support/raw-http.ts';
import { json, useFixture } from '../support/use.ts';
import { FUZZ_RUNS, summary, tally, type Seen } from './fuzz-kit.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

/**
 * The server a fuzzing file sends to: the real app with the MCP routes, a signed-in admin, a key,
 * 20 flights, and a socket for raw bytes. Created before the file's tests, closed after them.
 */
export function useFuzzTarget() {
  return useFixture(
    async () => {
      const h = await createHarness({ app: { plugins: [mcpRoutes] }, config: { maxKeysPerTenant: 1000 } });
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin, { name: 'fuzz' });
      await h.services.flights.seed(SYSTEM_ACTOR, generateFlights(admin.tenantId, 20, h.clock.now(), 7));
      const flightId = json<{ data: Array<{ id: string }> }>(await h.api(secret, '/api/v1/flights?limit=1')).data[0]!
        .id;
      const port = await listen(h.app);
      let client = 0;
      // A fresh client address per request: guessing throttles answer 429 (allowed), but a shared
      // counter would turn most of the run into 429s and hide everything behind them.
      const nextAddress = () => `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`;

      /** inject, or null when light-my-request itself refuses to build the request (nothing was sent). */
      async function send(options: InjectOptions): Promise<Seen | null> {
        let response;
        try {
          response = await h.app.inject({ remoteAddress: nextAddress(), ...options });
        } catch (error) {
          if (error instanceof TypeError || (error as { code?: string }).code?.startsWith('ERR_')) {
            tally.refusedByClient += 1;
            return null;
          }
          throw error;
        }
        return { status: response.statusCode, headers: response.headers, body: response.body };
      }

      return { h, admin, secret, flightId, port, send, requestsSent: () => client };
    },
    async ({ h }) => {
      console.log(`[fuzz] FUZZ_RUNS=${FUZZ_RUNS}: ${summary()}`);
      await h.close();
    },
  );
}
