import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalString, parseBody, webauthnResponse } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { authenticate } from './guard.ts';
import {
  finishAuthentication,
  finishRegistration,
  listPasskeys,
  removePasskey,
  startAuthentication,
  startRegistration,
  updatePasskey,
} from './passkeys.ts';

const ceremonyBody = z.object({ challenge_id: optionalString, credential: webauthnResponse });
const updateBody = z.object({ friendly_name: optionalString });

type PasskeyParams = { Params: { id: string } };

/** GoTrue's passkey endpoints (auth-js `signInWithPasskey`, `registerPasskey`, `passkey.*`). */
export function passkeyRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // A passkey sign-in is a sign-in: it counts against the per-IP /token limit.
  const limitSignIn = (ip: string) => ctx.limits.hit('token', ip, ctx.auth.rateLimits.token);
  // Registration verifies signatures too: the MFA limit per minute (GoTrue: 15).
  const limitRegistration = (ip: string) =>
    ctx.limits.hit('mfa', ip, ctx.auth.mfa.rateLimit, 60_000);

  app.post('/passkeys/registration/options', async (request) => {
    await limitRegistration(request.ip);
    return startRegistration(ctx, await authenticate(ctx, request));
  });

  app.post('/passkeys/registration/verify', async (request) => {
    const info = requestInfo(request);
    await limitRegistration(info.ip);
    const auth = await authenticate(ctx, request);
    const body = parseBody(ceremonyBody, request.body);
    return finishRegistration(
      ctx,
      auth,
      { challengeId: body.challenge_id ?? undefined, credential: body.credential },
      info,
    );
  });

  app.post('/passkeys/authentication/options', async (request) => {
    await limitSignIn(request.ip);
    return startAuthentication(ctx);
  });

  app.post('/passkeys/authentication/verify', async (request) => {
    const info = requestInfo(request);
    await limitSignIn(info.ip);
    const body = parseBody(ceremonyBody, request.body);
    return finishAuthentication(
      ctx,
      { challengeId: body.challenge_id ?? undefined, credential: body.credential },
      info,
    );
  });

  app.get('/passkeys', async (request) => listPasskeys(ctx, await authenticate(ctx, request)));

  app.patch<PasskeyParams>('/passkeys/:id', async (request) => {
    const info = requestInfo(request);
    const auth = await authenticate(ctx, request);
    const body = parseBody(updateBody, request.body);
    return updatePasskey(ctx, auth, request.params.id, body.friendly_name ?? undefined, info);
  });

  app.delete<PasskeyParams>('/passkeys/:id', async (request, reply) => {
    const info = requestInfo(request);
    const auth = await authenticate(ctx, request);
    await removePasskey(ctx, auth, request.params.id, info);
    return reply.code(204).send();
  });
}
