import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authenticateAdmin } from './admin.ts';
import { optionalString, parseBody, webauthnResponse } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { authenticate } from './guard.ts';
import {
  deleteUserPasskey,
  finishAuthentication,
  finishRegistration,
  listPasskeys,
  listUserPasskeys,
  removePasskey,
  startAuthentication,
  startRegistration,
  updatePasskey,
} from './passkeys.service.ts';
import { limitedBy } from './route.ts';

// Bodies are parsed after the bearer check: a missing or refused token answers first.
const ceremonyBody = z
  .object({ challenge_id: optionalString, credential: webauthnResponse })
  .transform((body) => ({
    challengeId: body.challenge_id ?? undefined,
    credential: body.credential,
  }));
const updateBody = z.object({ friendly_name: optionalString });

type PasskeyParams = { Params: { id: string } };
type UserPasskeyParams = { Params: { id: string; passkeyId: string } };

/** GoTrue's passkey endpoints (auth-js `signInWithPasskey`, `registerPasskey`, `passkey.*`). */
export function passkeyRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // Registration verifies signatures too: the MFA limit per minute (GoTrue: 15).
  const registration = { onRequest: limitedBy(ctx, 'mfa') };
  // A passkey sign-in is a sign-in: it counts against the per-IP /token limit.
  const signIn = { onRequest: limitedBy(ctx, 'token') };

  app.post('/passkeys/registration/options', registration, async (request) =>
    startRegistration(ctx, await authenticate(ctx, request)),
  );

  app.post('/passkeys/registration/verify', registration, async (request) => {
    const auth = await authenticate(ctx, request);
    const body = parseBody(ceremonyBody, request.body);
    return finishRegistration(ctx, auth, body, requestInfo(request));
  });

  app.post('/passkeys/authentication/options', signIn, async () => startAuthentication(ctx));

  app.post('/passkeys/authentication/verify', signIn, async (request) =>
    finishAuthentication(ctx, parseBody(ceremonyBody, request.body), requestInfo(request)),
  );

  app.get('/passkeys', async (request) => listPasskeys(ctx, await authenticate(ctx, request)));

  app.patch<PasskeyParams>('/passkeys/:id', async (request) => {
    const auth = await authenticate(ctx, request);
    const body = parseBody(updateBody, request.body);
    const name = body.friendly_name ?? undefined;
    return updatePasskey(ctx, auth, request.params.id, name, requestInfo(request));
  });

  app.delete<PasskeyParams>('/passkeys/:id', async (request, reply) => {
    await removePasskey(
      ctx,
      await authenticate(ctx, request),
      request.params.id,
      requestInfo(request),
    );
    return reply.code(204).send();
  });

  // GoTrue's admin API for passkeys (auth-js `admin.passkey.listPasskeys`, `deletePasskey`).
  app.get<PasskeyParams>('/admin/users/:id/passkeys', async (request) => {
    await authenticateAdmin(ctx, request);
    return listUserPasskeys(ctx, request.params.id);
  });

  app.delete<UserPasskeyParams>('/admin/users/:id/passkeys/:passkeyId', async (request, reply) => {
    await authenticateAdmin(ctx, request);
    await deleteUserPasskey(ctx, request.params.id, request.params.passkeyId, requestInfo(request));
    return reply.code(204).send();
  });
}
