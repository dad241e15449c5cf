import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { metadata, optionalPassword, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { authenticate } from './guard.ts';
import { limitedBy } from './route.ts';
import { getUser, logout, reauthenticate, updateUser } from './user.service.ts';
import { redirectAsk } from './verify.routes.ts';

const updateBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
  nonce: optionalString,
  data: metadata,
  app_metadata: z.unknown().optional(),
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

// The bearer check comes before the body's: an unauthenticated caller learns nothing of it.
export function userRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/user', async (request) => {
    // The guard checked the audience asked for (X-JWT-AUD) or, by default, ours.
    const { user } = await authenticate(ctx, request);
    return getUser(ctx, user);
  });

  app.put('/user', async (request) => {
    const me = await authenticate(ctx, request);
    const body = parseBody(updateBody, request.body);
    return updateUser(ctx, requestInfo(request), me, body, redirectAsk(request));
  });

  app.get('/reauthenticate', { onRequest: limitedBy(ctx, 'otp') }, async (request) => {
    const { user } = await authenticate(ctx, request);
    return reauthenticate(ctx, requestInfo(request), user);
  });

  app.post('/logout', async (request, reply) => {
    const me = await authenticate(ctx, request);
    await logout(ctx, requestInfo(request), me, queryParam(request.query, 'scope') ?? 'global');
    return reply.code(204).send();
  });
}
