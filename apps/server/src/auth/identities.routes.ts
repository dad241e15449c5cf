import type { FastifyInstance } from 'fastify';
import { type AuthContext, requestInfo } from './context.ts';
import { authenticate } from './guard.ts';
import { assertManualLinking, linkingUrl, unlinkIdentity } from './identities.service.ts';
import { authorizeInput } from './oauth/oauth.routes.ts';

/** Manual identity linking of the signed-in user. */
export function identityRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // auth-js linkIdentity fetches this with the user's token and skip_http_redirect=true,
  // then navigates to the `url`; the callback links the identity to this user.
  app.get('/user/identities/authorize', async (request, reply) => {
    const { user } = await authenticate(ctx, request);
    assertManualLinking(ctx);
    const input = await authorizeInput(ctx, request);
    const url = await linkingUrl(ctx, user.id, input);
    return input.skipRedirect ? { url } : reply.redirect(url, 302);
  });

  app.delete<{ Params: { id: string } }>('/user/identities/:id', async (request) => {
    const { user } = await authenticate(ctx, request);
    assertManualLinking(ctx);
    await unlinkIdentity(ctx, user.id, request.params.id, requestInfo(request));
    return {};
  });
}
