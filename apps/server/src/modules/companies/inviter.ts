import type { AuthContext } from '../../auth/context.ts';
import { AuthError } from '../../auth/errors.ts';
import { inviteUserByEmail } from '../../auth/invite.ts';
import { findUserByEmail } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { InviteUser } from './companies.service.ts';

/** Tells someone who already has an account that a team invited them. */
async function sendInvitationNotice(
  auth: AuthContext,
  { email, companyName }: { email: string; companyName: string },
): Promise<void> {
  const link = `${auth.auth.siteUrl}/admin/account`;
  const intro = `${companyName} has invited you to join their team on UpNext.`;
  const how = 'Sign in and accept or decline the invitation on your account page.';
  await auth.mailer.send({
    to: email,
    subject: `You have been invited to join ${companyName} on UpNext`,
    text: `${intro}\n\n${how}\n${link}\n`,
    html: `<p>${escapeHtml(intro)}</p><p>${escapeHtml(how)}</p><p><a href="${escapeHtml(link)}">Open your account page</a></p>`,
  });
}

/**
 * Invites through the auth service (`inviteUserByEmail`: a user without a password and a
 * branded invitation whose link confirms the address and signs them in at /admin/account,
 * where they choose a password and accept the invitation). Someone who already has a confirmed
 * account gets a notice instead. Either way the membership stays `invited`, granting nothing,
 * until its invitee accepts it (`POST /user/invitations/{companyId}/accept`).
 */
export function createInviter(deps: { db: Db; auth: AuthContext }): InviteUser {
  return async (input) => {
    const existing = await findUserByEmail(deps.db, input.email);
    if (existing?.emailConfirmedAt) {
      await sendInvitationNotice(deps.auth, input);
      return { userId: existing.id };
    }
    try {
      const user = await inviteUserByEmail(deps.auth, input.email, {
        redirectTo: `${deps.auth.auth.siteUrl}/admin/account`,
        teamName: input.companyName,
      });
      return { userId: user.id };
    } catch (error) {
      if (error instanceof AuthError && error.status === 429) {
        throw new AppError(
          'too_many_requests',
          'An invitation was just sent to this address. Please wait a moment and try again.',
          undefined,
          { retryAfterSeconds: error.retryAfterSeconds },
        );
      }
      throw error;
    }
  };
}
