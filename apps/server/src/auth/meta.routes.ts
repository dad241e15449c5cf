import type { FastifyInstance } from 'fastify';
import { queryParam } from './body.ts';
import type { AuthContext } from './context.ts';
import { errors } from './errors.ts';
import { readDevMailbox } from './mailer.ts';

/** GET /settings: which sign-ins this server offers, as auth-js reads them. */
function settingsOf(ctx: AuthContext) {
  const enabled = (name: string) => ctx.auth.oauthProviders.some((p) => p.name === name);
  return {
    external: {
      email: true,
      phone: ctx.sms !== null,
      anonymous_users: ctx.auth.anonymousSignInsEnabled,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      github: enabled('github'),
      gitlab: false,
      google: enabled('google'),
      keycloak: false,
      linkedin_oidc: false,
      notion: false,
      slack_oidc: false,
      spotify: false,
      twitch: false,
      twitter: false,
      workos: false,
      zoom: false,
      oidc: enabled('oidc'),
    },
    // Not GoTrue's: the names a sign-in page shows for the enabled providers.
    external_labels: Object.fromEntries(ctx.auth.oauthProviders.map((p) => [p.name, p.label])),
    manual_linking_enabled: ctx.auth.manualLinkingEnabled,
    disable_signup: ctx.auth.disableSignup,
    mailer_autoconfirm: ctx.auth.mailerAutoconfirm,
    phone_autoconfirm: ctx.sms !== null && ctx.auth.sms.autoconfirm,
    sms_provider: ctx.sms?.kind === 'twilio' ? 'twilio' : '',
    saml_enabled: false,
    passkeys_enabled: true,
  };
}

export function metaRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return ctx.keys.jwks();
  });

  app.get('/health', async () => ({
    version: ctx.config.version,
    name: 'GoTrue',
    description: 'UpNext auth: a GoTrue-compatible API for user registration and authentication',
  }));

  app.get('/settings', async () => settingsOf(ctx));

  // SAML single sign-on is not offered (saml_enabled: false above): everything under /sso
  // answers as GoTrue does with SAML switched off (signInWithSSO, the SAML metadata and ACS),
  // already on the request, before a body is read (the ACS posts a form). Not OPTIONS, which
  // the CORS preflight answers.
  const samlDisabled = async () => {
    throw errors.samlDisabled();
  };
  for (const url of ['/sso', '/sso/*']) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url,
      onRequest: samlDisabled,
      handler: samlDisabled,
    });
  }

  // The developer mailbox: mail kept locally when no SMTP server is set. Only on a local
  // developer's server unless DEV_MAILBOX says otherwise (config.ts).
  if (ctx.config.devMailbox) {
    app.get('/dev/mailbox', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // What was asked for before this read is in it, even where it is sent after the answer.
      await Promise.allSettled([...ctx.pending]);
      return { messages: await readDevMailbox(ctx.db, queryParam(request.query, 'to')) };
    });
  }
}
