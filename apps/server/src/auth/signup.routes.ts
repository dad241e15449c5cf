import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { metadata, optionalPassword, optionalString, parseBody } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { limitedBy } from './route.ts';
import { signup } from './signup.service.ts';

const signupBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
  data: metadata,
  channel: optionalString,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

export function signupRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/signup', { onRequest: limitedBy(ctx, 'otp') }, async (request) => {
    const body = parseBody(signupBody, request.body);
    const redirect = { query: request.query, referer: request.headers.referer };
    return signup(ctx, body, redirect, requestInfo(request));
  });
}
