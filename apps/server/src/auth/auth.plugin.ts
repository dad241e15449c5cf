import type { FastifyPluginAsync } from 'fastify';
import { adminRoutes } from './admin.routes.ts';
import type { AuthContext } from './context.ts';
import { authErrorHandler, errors, sendAuthError } from './errors.ts';
import { identityRoutes } from './identities.routes.ts';
import { pruneExpired } from './maintenance.ts';
import { metaRoutes } from './meta.routes.ts';
import { mfaRoutes } from './mfa.routes.ts';
import { oauthRoutes } from './oauth/oauth.routes.ts';
import { passkeyRoutes } from './passkeys.routes.ts';
import { signupRoutes } from './signup.routes.ts';
import { tokenRoutes } from './token.routes.ts';
import { userRoutes } from './user.routes.ts';
import { verifyRoutes } from './verify.routes.ts';

export type AuthPluginOptions = {
  /** Built once at start (createAuthContext), shared with server-side callers. */
  ctx: AuthContext;
};

/**
 * The GoTrue-compatible auth API (CONTRACT.md), mounted at /auth/v1. Encapsulated: its JSON
 * parser, error shape and not-found answer are GoTrue's and do not touch the /api envelope.
 */
export const authPlugin: FastifyPluginAsync<AuthPluginOptions> = async (app, { ctx }) => {
  // auth-js sends `Content-Type: application/json;charset=UTF-8` even with no body (logout).
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    return json(request, text, done);
  });

  // GoTrue's API is documented by CONTRACT.md and auth-js, not in the /api OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.setErrorHandler(authErrorHandler);
  app.setNotFoundHandler((request, reply) => sendAuthError(request, reply, errors.notFound()));
  app.addHook('onSend', async (_request, reply) => {
    // Tokens and users must not sit in any cache.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // Housekeeping every 10 minutes; a failure is logged and retried next time.
  const prune = setInterval(() => {
    pruneExpired(ctx.db, ctx.clock).catch((error: unknown) => {
      app.log.warn({ err: error }, 'auth: pruning expired rows failed');
    });
  }, 10 * 60_000);
  prune.unref();
  app.addHook('onClose', async () => {
    clearInterval(prune);
    await Promise.allSettled([...ctx.pending]);
  });

  signupRoutes(app, ctx);
  tokenRoutes(app, ctx);
  verifyRoutes(app, ctx);
  userRoutes(app, ctx);
  metaRoutes(app, ctx);
  oauthRoutes(app, ctx);
  identityRoutes(app, ctx);
  mfaRoutes(app, ctx);
  passkeyRoutes(app, ctx);
  adminRoutes(app, ctx);
};
