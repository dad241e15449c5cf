import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalString, parseBody, webauthnResponse } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { authenticate } from './guard.ts';
import { createChallenge, enrollFactor, unenroll, verifyChallenge } from './mfa.service.ts';
import { limitedBy } from './route.ts';

// Bodies are parsed after the bearer check: a missing or refused token answers first.
const enrollBody = z
  .object({
    factor_type: optionalString,
    friendly_name: optionalString,
    issuer: optionalString,
    phone: optionalString,
  })
  .transform((body) => ({
    factorType: body.factor_type ?? undefined,
    friendlyName: body.friendly_name ?? undefined,
    issuer: body.issuer ?? undefined,
    phone: body.phone ?? undefined,
  }));
// auth-js also sends factorId, and rpId/rpOrigins for WebAuthn, to /challenge and /verify:
// ignored, the relying party is the server's (PUBLIC_URL).
const verifyBody = z
  .object({
    challenge_id: optionalString,
    code: optionalString,
    webauthn: z.object({ type: optionalString, credential_response: webauthnResponse }).nullish(),
  })
  .transform((body) => ({
    challengeId: body.challenge_id ?? undefined,
    code: body.code ?? undefined,
    webauthn: body.webauthn
      ? { type: body.webauthn.type ?? undefined, response: body.webauthn.credential_response }
      : undefined,
  }));
const challengeBody = z
  .object({ channel: optionalString })
  .transform((body) => ({ channel: body.channel ?? undefined }));

type FactorParams = { Params: { id: string } };

/** GoTrue's MFA endpoints (CONTRACT.md §1.8); factors are listed by GET /user. */
export function mfaRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/factors', async (request) => {
    const auth = await authenticate(ctx, request);
    const body = parseBody(enrollBody, request.body);
    return enrollFactor(ctx, auth, body, requestInfo(request));
  });

  // Challenges and verifications per client IP per minute (GoTrue: 15).
  app.post<FactorParams>(
    '/factors/:id/challenge',
    { onRequest: limitedBy(ctx, 'mfa') },
    async (request) => {
      const auth = await authenticate(ctx, request);
      const body = parseBody(challengeBody, request.body);
      return createChallenge(ctx, auth, request.params.id, body, requestInfo(request));
    },
  );

  app.post<FactorParams>(
    '/factors/:id/verify',
    { onRequest: limitedBy(ctx, 'mfa') },
    async (request) => {
      const auth = await authenticate(ctx, request);
      const body = parseBody(verifyBody, request.body);
      return verifyChallenge(ctx, auth, request.params.id, body, requestInfo(request));
    },
  );

  app.delete<FactorParams>('/factors/:id', async (request) =>
    unenroll(ctx, await authenticate(ctx, request), request.params.id, requestInfo(request)),
  );
}
