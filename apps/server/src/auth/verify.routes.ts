import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { metadata, optionalString, parseBody, queryParam } from './body.ts';
import type { RedirectAsk } from './channels.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { limitedBy } from './route.ts';
import { recover, resend, sendOtp, verifyLink, verifyOtp } from './verify.service.ts';

const verifyBody = z.object({
  type: optionalString,
  email: optionalString,
  phone: optionalString,
  token: optionalString,
  token_hash: optionalString,
});
const otpBody = z.object({
  email: optionalString,
  phone: optionalString,
  data: metadata,
  create_user: z.boolean().nullish(),
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});
const emailBody = z.object({
  email: optionalString,
  phone: optionalString,
  type: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

/** `?redirect_to=` and the Referer, read by the service where GoTrue reads them. */
export function redirectAsk(request: FastifyRequest): RedirectAsk {
  return { query: request.query, referer: request.headers.referer };
}

export function verifyRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/verify', { onRequest: limitedBy(ctx, 'verify') }, async (request) =>
    verifyOtp(ctx, requestInfo(request), parseBody(verifyBody, request.body)),
  );

  // The link in an email: a browser navigation, answered with a redirect either way.
  app.get('/verify', async (request, reply) => {
    const info = requestInfo(request);
    const location = await verifyLink(ctx, info, {
      type: queryParam(request.query, 'type'),
      token: queryParam(request.query, 'token'),
      redirectTo: queryParam(request.query, 'redirect_to'),
    });
    return reply.header('cache-control', 'no-store').redirect(location, 303);
  });

  app.post('/otp', { onRequest: limitedBy(ctx, 'otp') }, async (request) =>
    sendOtp(ctx, requestInfo(request), parseBody(otpBody, request.body), redirectAsk(request)),
  );

  app.post('/recover', { onRequest: limitedBy(ctx, 'otp') }, async (request) =>
    recover(ctx, requestInfo(request), parseBody(emailBody, request.body), redirectAsk(request)),
  );

  app.post('/resend', { onRequest: limitedBy(ctx, 'otp') }, async (request) =>
    resend(ctx, requestInfo(request), parseBody(emailBody, request.body), redirectAsk(request)),
  );
}
