import type { FastifyInstance } from 'fastify';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { authenticate } from './guard.ts';
import { unlinkIdentity } from './identities.ts';
import { beginOAuth } from './oauth/flow.ts';
import { authorizeInput } from './oauth/oauth.routes.ts';

/** Manual identity linking (GoTrue: SECURITY_MANUAL_LINKING_ENABLED, off by default). */
export function identityRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // auth-js linkIdentity fetches this with the user's token and skip_http_redirect=true,
  // then navigates to the `url`; the callback links the identity to this user.
  app.get('/user/identities/authorize', async (request, reply) => {
    const { user } = await authenticate(ctx, request);
    if (!ctx.auth.manualLinkingEnabled) throw errors.manualLinkingDisabled();
    const input = await authorizeInput(ctx, request);
    const url = await beginOAuth(ctx, input.provider, { ...input, linkUserId: user.id });
    if (input.skipRedirect) return { url };
    return reply.redirect(url, 302);
  });

  app.delete<{ Params: { id: string } }>('/user/identities/:id', async (request) => {
    const { user } = await authenticate(ctx, request);
    if (!ctx.auth.manualLinkingEnabled) throw errors.manualLinkingDisabled();
    await unlinkIdentity(ctx, user.id, request.params.id, requestInfo(request));
    return {};
  });
}
