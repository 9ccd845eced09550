import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app/services.ts';
import {
  addedPasskeySchema,
  addPasskeyBodySchema,
  maybeRecoveryCodesSchema,
  recoveryCodesSchema,
  secondFactorsSchema,
  totpConfirmBodySchema,
  totpEnrolmentSchema,
  webauthnOptionsSchema,
} from '../../second-factors/second-factor-schemas.ts';
import { sessionListItemSchema } from '../../sessions/session-schemas.ts';
import { changePasswordBodySchema } from '../../users/user-schemas.ts';
import { idParamsSchema, problemResponses } from '../schemas.ts';
import { relyingParty, sessionHook, signedInActor } from '../session-auth.ts';
import { knownId } from './backoffice-keys.ts';

const securitySchema = z.object({ second_factors: secondFactorsSchema, sessions: z.array(sessionListItemSchema) });

/**
 * A person's own account (docs/sign-in.md): the Security page's password, second factors and
 * sessions. Open to an enrolment-only session: this is where it enrols.
 */
export function backofficeMeRoutes(
  app: FastifyInstance,
  services: Pick<Services, 'signIn' | 'accounts' | 'config'>,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { sessions, secondFactors } = services.signIn;
  const { users } = services.accounts;
  app.addHook('onRequest', sessionHook(sessions, 'open'));
  const noStore = { 'Cache-Control': 'no-store' };

  api.get('/me/security', {
    schema: { response: { 200: securitySchema, ...problemResponses(401) } },
    handler: async (request) => {
      const actor = signedInActor(request);
      const [factors, list] = await Promise.all([secondFactors.overview(actor), sessions.listMine(actor)]);
      return { second_factors: factors, sessions: list };
    },
  });

  api.put('/me/password', {
    schema: { body: changePasswordBodySchema },
    handler: async (request, reply) => {
      const { current_password, new_password } = request.body;
      await users.changeOwnPassword(signedInActor(request), request.client, current_password, new_password);
      return reply.code(204).send();
    },
  });

  api.post('/me/totp', {
    schema: { response: { 200: totpEnrolmentSchema, ...problemResponses(401, 403) } },
    handler: async (request, reply) => {
      reply.headers(noStore);
      return secondFactors.beginTotp(signedInActor(request));
    },
  });

  api.post('/me/totp/confirm', {
    schema: {
      body: totpConfirmBodySchema,
      response: { 200: maybeRecoveryCodesSchema, ...problemResponses(400, 401, 403) },
    },
    handler: async (request, reply) => {
      reply.headers(noStore);
      return secondFactors.confirmTotp(signedInActor(request), request.body.code);
    },
  });

  api.delete('/me/totp', {
    handler: async (request, reply) => {
      await secondFactors.removeTotp(signedInActor(request));
      return reply.code(204).send();
    },
  });

  api.post('/me/passkeys/options', {
    schema: { response: { 200: webauthnOptionsSchema, ...problemResponses(401, 403, 409) } },
    handler: async (request) =>
      secondFactors.passkeyOptions(signedInActor(request), relyingParty(request, services.config.publicOrigin)),
  });

  api.post('/me/passkeys', {
    schema: {
      body: addPasskeyBodySchema,
      response: { 201: addedPasskeySchema, ...problemResponses(400, 401, 403, 409) },
    },
    handler: async (request, reply) => {
      const { name, response } = request.body;
      const rp = relyingParty(request, services.config.publicOrigin);
      const added = await secondFactors.addPasskey(signedInActor(request), rp, name, response);
      reply.headers(noStore).code(201);
      return added;
    },
  });

  api.delete('/me/passkeys/:id', {
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      await secondFactors.removePasskey(signedInActor(request), knownId(request.params.id, 'passkey'));
      return reply.code(204).send();
    },
  });

  api.post('/me/recovery-codes', {
    schema: { response: { 200: recoveryCodesSchema, ...problemResponses(400, 401, 403) } },
    handler: async (request, reply) => {
      reply.headers(noStore);
      return secondFactors.regenerateRecoveryCodes(signedInActor(request));
    },
  });

  api.delete('/me/sessions/:id', {
    schema: { params: idParamsSchema },
    handler: async (request, reply) => {
      await sessions.endMine(signedInActor(request), knownId(request.params.id, 'session'));
      return reply.code(204).send();
    },
  });

  api.delete('/me/sessions', {
    handler: async (request, reply) => {
      await sessions.endMyOthers(signedInActor(request));
      return reply.code(204).send();
    },
  });
}
