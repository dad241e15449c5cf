import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalPassword, optionalString, parseBody, queryParam } from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { authenticate } from './guard.ts';
import { idTokenBody, idTokenGrant } from './oauth/id-token.ts';
import { exchangeAuthCode } from './pkce.ts';
import { limitedBy } from './route.ts';
import { passwordGrant, refreshGrant } from './token.service.ts';

// One endpoint, several grants: the body's shape depends on `grant_type`.
const grantBodies = {
  password: z.object({ email: optionalString, phone: optionalString, password: optionalPassword }),
  refresh_token: z.object({ refresh_token: optionalString }),
  pkce: z.object({ auth_code: optionalString, code_verifier: optionalString }),
};

export function tokenRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.post('/token', { onRequest: limitedBy(ctx, 'token') }, async (request) => {
    const info = requestInfo(request);
    const grantType = queryParam(request.query, 'grant_type');
    switch (grantType) {
      case 'password':
        return passwordGrant(ctx, parseBody(grantBodies.password, request.body), info);
      case 'refresh_token':
        return refreshGrant(ctx, parseBody(grantBodies.refresh_token, request.body), info);
      case 'pkce':
        return exchangeAuthCode(ctx, parseBody(grantBodies.pkce, request.body), info);
      case 'id_token':
        return idTokenGrant(ctx, parseBody(idTokenBody, request.body), info, () =>
          authenticate(ctx, request),
        );
      case 'web3':
        // Sign-in with a Solana or Ethereum wallet (signInWithWeb3) is not offered.
        throw errors.web3Disabled();
      default:
        throw errors.invalidCredentials('unsupported_grant_type');
    }
  });
}
