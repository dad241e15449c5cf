import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalString, parseBody, webauthnResponse } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { authenticate } from './guard.ts';
import {
  createChallenge,
  enrollPhone,
  enrollTotp,
  enrollWebauthn,
  unenroll,
  verifyChallenge,
} from './mfa.ts';

const enrollBody = z.object({
  factor_type: optionalString,
  friendly_name: optionalString,
  issuer: optionalString,
  phone: optionalString,
});
// auth-js also sends factorId, and rpId/rpOrigins for WebAuthn, to /challenge and /verify:
// ignored, the relying party is the server's (PUBLIC_URL).
const verifyBody = z.object({
  challenge_id: optionalString,
  code: optionalString,
  webauthn: z.object({ type: optionalString, credential_response: webauthnResponse }).nullish(),
});
const challengeBody = z.object({ channel: optionalString });

type FactorParams = { Params: { id: string } };

/** GoTrue's MFA endpoints (CONTRACT.md §1.8); factors are listed by GET /user. */
export function mfaRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // Challenges and verifications per client IP per minute (GoTrue: 15).
  const limit = (ip: string) => ctx.limits.hit('mfa', ip, ctx.auth.mfa.rateLimit, 60_000);

  app.post('/factors', async (request) => {
    const info = requestInfo(request);
    const auth = await authenticate(ctx, request);
    const body = parseBody(enrollBody, request.body);
    switch (body.factor_type) {
      case 'totp':
        return enrollTotp(
          ctx,
          auth,
          { friendlyName: body.friendly_name ?? undefined, issuer: body.issuer ?? undefined },
          info,
        );
      case 'phone':
        return enrollPhone(
          ctx,
          auth,
          { friendlyName: body.friendly_name ?? undefined, phone: body.phone ?? undefined },
          info,
        );
      case 'webauthn':
        return enrollWebauthn(ctx, auth, { friendlyName: body.friendly_name ?? undefined }, info);
      default:
        throw errors.validation('factor_type needs to be totp, phone or webauthn');
    }
  });

  app.post<FactorParams>('/factors/:id/challenge', async (request) => {
    const info = requestInfo(request);
    await limit(info.ip);
    const auth = await authenticate(ctx, request);
    const body = parseBody(challengeBody, request.body);
    return createChallenge(
      ctx,
      auth,
      request.params.id,
      { channel: body.channel ?? undefined },
      info,
    );
  });

  app.post<FactorParams>('/factors/:id/verify', async (request) => {
    const info = requestInfo(request);
    await limit(info.ip);
    const auth = await authenticate(ctx, request);
    const body = parseBody(verifyBody, request.body);
    return verifyChallenge(
      ctx,
      auth,
      request.params.id,
      {
        challengeId: body.challenge_id ?? undefined,
        code: body.code ?? undefined,
        webauthn: body.webauthn
          ? {
              type: body.webauthn.type ?? undefined,
              response: body.webauthn.credential_response,
            }
          : undefined,
      },
      info,
    );
  });

  app.delete<FactorParams>('/factors/:id', async (request) => {
    const info = requestInfo(request);
    const auth = await authenticate(ctx, request);
    return unenroll(ctx, auth, request.params.id, info);
  });
}
