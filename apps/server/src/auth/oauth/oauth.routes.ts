import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryParam } from '../body.ts';
import { type AuthContext, requestInfo } from '../context.ts';
import { pkceFromBody } from '../pkce.ts';
import { resolveRedirect } from '../redirect.ts';
import { beginOAuth, completeOAuth, enabledProvider, passThroughParams } from './flow.ts';

/** Reads the OAuth parameters of GET /authorize and GET /user/identities/authorize. */
export async function authorizeInput(ctx: AuthContext, request: FastifyRequest) {
  // Each start writes a row: limited per IP like the token endpoint.
  await ctx.limits.hit('oauth', request.ip, ctx.auth.rateLimits.token);
  const query = request.query;
  return {
    provider: enabledProvider(ctx, queryParam(query, 'provider')),
    redirectTo: resolveRedirect(
      ctx.redirects,
      queryParam(query, 'redirect_to'),
      request.headers.referer,
    ),
    pkce: pkceFromBody({
      code_challenge: queryParam(query, 'code_challenge'),
      code_challenge_method: queryParam(query, 'code_challenge_method'),
    }),
    scopes: queryParam(query, 'scopes'),
    extra: passThroughParams(query),
    skipRedirect: queryParam(query, 'skip_http_redirect') === 'true',
  };
}

export function oauthRoutes(app: FastifyInstance, ctx: AuthContext): void {
  // Encapsulated, so only /callback reads form bodies (response_mode=form_post).
  app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    scope.get('/authorize', async (request, reply) => {
      const input = await authorizeInput(ctx, request);
      const url = await beginOAuth(ctx, input.provider, { ...input, linkUserId: null });
      if (input.skipRedirect) return { url };
      return reply.redirect(url, 302);
    });

    const callback = async (request: FastifyRequest, fields: unknown) => {
      const location = await completeOAuth(
        ctx,
        {
          state: queryParam(fields, 'state'),
          code: queryParam(fields, 'code'),
          error: queryParam(fields, 'error'),
          errorDescription: queryParam(fields, 'error_description'),
        },
        requestInfo(request),
      );
      return location;
    };
    scope.get('/callback', async (request, reply) =>
      reply.redirect(await callback(request, request.query), 303),
    );
    scope.post('/callback', async (request, reply) =>
      reply.redirect(
        await callback(request, { ...(request.query as object), ...(request.body as object) }),
        303,
      ),
    );
    done();
  });
}
