import { eq } from 'drizzle-orm';
import { type Mailer, mailerFor } from '../../auth/mailer.ts';
import { createUser } from '../../auth/users.service.ts';
import { findUserByEmail } from '../../auth/users.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import { authUsers } from '../../db/schema/auth.ts';
import type { Clock } from '../../lib/clock.ts';
import type { InviteUser } from './companies.service.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The smallest honest invite, used until the auth service's own `inviteUserByEmail` is
 * wired: a new address gets an auth user with `invited_at` (no password, not confirmed) and
 * a mail telling them to sign in with an emailed link or code at /login; an existing
 * account gets a notice. The membership stays `invited` until its invitee accepts it.
 */
export function createFallbackInviter(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  mailer?: Mailer;
}): InviteUser {
  const auth = deps.config.auth;
  const mailer = deps.mailer ?? mailerFor(auth, deps.db);
  return async ({ email, companyName }) => {
    const now = deps.clock();
    let user = await findUserByEmail(deps.db, email);
    const isNew = !user;
    if (!user) {
      try {
        user = await deps.db.transaction(async (tx) => {
          const created = await createUser(tx, {
            email: { address: email, confirmed: false },
            encryptedPassword: null,
            userMetadata: {},
            now,
            aud: auth.jwtAud,
          });
          await tx.update(authUsers).set({ invitedAt: now }).where(eq(authUsers.id, created.id));
          return created;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        user = await findUserByEmail(deps.db, email);
      }
      if (!user) throw new Error('invited user not created');
    }
    const link = `${auth.siteUrl}/admin/account`;
    const intro = `${companyName} has invited you to join their team on UpNext.`;
    const how = isNew
      ? 'Sign in with this address (ask for a sign-in link or code by email), then accept the invitation on your account page.'
      : 'Sign in and accept or decline the invitation on your account page.';
    await mailer.send({
      to: email,
      subject: `You have been invited to join ${companyName} on UpNext`,
      text: `${intro}\n\n${how}\n${link}\n`,
      html: `<p>${escapeHtml(intro)}</p><p>${escapeHtml(how)}</p><p><a href="${escapeHtml(link)}">Open your account page</a></p>`,
    });
    return { userId: user.id };
  };
}
