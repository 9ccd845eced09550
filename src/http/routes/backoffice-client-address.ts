import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemResponses } from '../schemas.ts';

export const clientAddressSchema = z.object({
  address: z.string().describe('The caller’s address as airkey derives it (docs/keys.md (IP allowlists))'),
});
export type ClientAddress = z.infer<typeof clientAddressSchema>;

/**
 * `GET /backoffice/api/client-address`: the signed-in caller's own address, as the key check would
 * see it (the same derivation, TRUSTED_PROXIES included), so the back office can offer it as an
 * allowlist entry. It tells the caller only what their connection already says.
 */
export function backofficeClientAddressRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get('/client-address', {
    schema: { response: { 200: clientAddressSchema, ...problemResponses(401) } },
    handler: (request) => ({ address: request.client }),
  });
}
