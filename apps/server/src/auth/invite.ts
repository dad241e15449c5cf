import { defaultLanguage, type Language } from '@upnext/contract/languages';
import { spaRoutes } from '@upnext/contract/routes';
import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { factorsJsonOf } from './mfa-factors.ts';
import { issueToken, sendAuthEmail } from './one-time-tokens.ts';
import { resolveRedirect } from './redirect.ts';
import { createUser } from './users.service.ts';
import {
  findUserByEmail,
  identitiesOf,
  isValidEmail,
  normaliseEmail,
  type UserJson,
  userJson,
} from './users.ts';

export type InviteOptions = {
  /**
   * Where the invitation link lands (allow-listed like every redirect); by default the site's
   * set-password page (`/updatepassword`), an unlisted one falls back to SITE_URL.
   */
  redirectTo?: string | undefined;
  /** Stored as the new user's user_metadata. */
  data?: Record<string, unknown> | undefined;
  /** The company whose team the invitation is into: the mail names it. */
  teamName?: string | undefined;
};

/** For calls from other modules (no HTTP request of the auth API behind them). */
export const serverCall = (language: Language = defaultLanguage): RequestInfo => ({
  ip: 'server',
  userAgent: null,
  requestId: 'server',
  language,
});

/**
 * Invites someone by email (GoTrue's POST /invite, also called server-side, e.g. by the
 * company module to invite staff): creates the user without a password, unconfirmed, and
 * mails the branded invitation. Its link (or code, type `invite`) confirms the address and
 * signs the user in at `redirectTo` (by default the set-password page), where they choose a
 * password (PUT /user). Inviting an
 * address again before it was accepted sends a new invitation; an address with a confirmed
 * account answers 422 email_exists.
 */
export async function inviteUserByEmail(
  ctx: AuthContext,
  email: string,
  options: InviteOptions = {},
  info: RequestInfo = serverCall(),
): Promise<UserJson> {
  const address = normaliseEmail(email);
  if (!isValidEmail(address)) throw errors.invalidEmail();
  const redirectTo = resolveRedirect(
    ctx.redirects,
    options.redirectTo ?? `${ctx.auth.siteUrl}${spaRoutes.updatePassword}`,
  );
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      const existing = await findUserByEmail(tx, address);
      if (existing?.emailConfirmedAt) throw errors.emailExists();
      const user =
        existing ??
        (await createUser(tx, {
          email: { address: address, confirmed: false },
          encryptedPassword: null,
          userMetadata: options.data ?? {},
          now,
          aud: ctx.auth.jwtAud,
        }));
      const link = await issueToken(ctx, tx, user, 'invite_token', address, redirectTo);
      await audit(tx, info, 'user_invited', user.id, {});
      const invited = (await findUserByEmail(tx, address)) ?? user;
      return { user: invited, link };
    });
  let outcome: Awaited<ReturnType<typeof run>>;
  try {
    outcome = await run();
  } catch (error) {
    // A sign-up or another invitation for the address won the race: invite the account it
    // made (still unconfirmed; a confirmed one is refused as above).
    if (!isUniqueViolation(error)) throw error;
    outcome = await run();
  }
  await sendAuthEmail(
    ctx,
    'invite',
    address,
    {
      ...outcome.link,
      type: 'invite',
      redirectTo,
      teamName: options.teamName,
    },
    info.language,
  );
  return userJson(
    outcome.user,
    await identitiesOf(ctx.db, outcome.user.id),
    await factorsJsonOf(ctx.db, outcome.user.id),
  );
}
