import type { MailMessage } from './mailer.ts';

/**
 * The auth emails: short, plain, branded "UpNext". Each carries the link (which verifies and
 * returns to the app) and the 6-digit code (for typing into the app), as GoTrue's template
 * variables ConfirmationURL and Token.
 */
export type TemplateKind =
  | 'signup'
  | 'invite'
  | 'magiclink'
  | 'recovery'
  | 'email_change_new'
  | 'email_change_current'
  | 'reauthentication'
  | 'existing_account'
  | 'no_account';

export type TemplateData = {
  to: string;
  siteUrl: string;
  /** Absent for the notices that verify nothing. */
  confirmationUrl?: string;
  token?: string;
  validMinutes?: number;
  /** For the email-change message to the current address. */
  newEmail?: string;
  /** For an invitation into a company's team: its name. */
  teamName?: string;
};

const copy: Record<TemplateKind, { subject: string; intro: string; action: string }> = {
  signup: {
    subject: 'Confirm your UpNext account',
    intro: 'Welcome to UpNext. Confirm your email address to finish creating your account.',
    action: 'Confirm my email',
  },
  invite: {
    subject: 'You have been invited to UpNext',
    intro:
      'You have been invited to join UpNext. Accept the invitation, then choose a password for your account.',
    action: 'Accept the invitation',
  },
  magiclink: {
    subject: 'Your UpNext sign-in link',
    intro: 'Use this link or code to sign in to UpNext.',
    action: 'Sign in',
  },
  recovery: {
    subject: 'Reset your UpNext password',
    intro: 'Someone (hopefully you) asked to reset the password of your UpNext account.',
    action: 'Choose a new password',
  },
  email_change_new: {
    subject: 'Confirm your new UpNext email address',
    intro: 'Confirm this address to make it the email address of your UpNext account.',
    action: 'Confirm my new email',
  },
  email_change_current: {
    subject: 'Confirm the change of your UpNext email address',
    intro:
      'Someone (hopefully you) asked to change the email address of your UpNext account. ' +
      'Confirm from this address too to complete the change.',
    action: 'Confirm the change',
  },
  reauthentication: {
    subject: 'Your UpNext confirmation code',
    intro: 'Enter the code below in UpNext to confirm it is you before changing your password.',
    action: 'Go to UpNext',
  },
  existing_account: {
    subject: 'You already have an UpNext account',
    intro:
      'Someone tried to create an UpNext account with this email address, but you already have one. ' +
      'Sign in instead, or reset your password if you have forgotten it.',
    action: 'Go to UpNext',
  },
  no_account: {
    subject: 'Sign-in attempt at UpNext',
    intro:
      'Someone asked to sign in to UpNext with this email address, but there is no account for it. ' +
      'If it was you, sign up first.',
    action: 'Go to UpNext',
  },
};

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** An invitation into a team names the team, and says the invitee accepts it once signed in. */
function teamInvite(teamName: string) {
  return {
    subject: `You have been invited to join ${teamName} on UpNext`,
    intro:
      `${teamName} has invited you to join their team on UpNext. Open the invitation, choose a ` +
      'password for your account, then accept the invitation on your account page.',
  };
}

export function renderAuthEmail(kind: TemplateKind, data: TemplateData): MailMessage {
  const { action } = copy[kind];
  const team = kind === 'invite' && data.teamName ? teamInvite(data.teamName) : undefined;
  const subject = team?.subject ?? copy[kind].subject;
  const base = team?.intro ?? copy[kind].intro;
  const intro = data.newEmail ? `${base} The new address would be ${data.newEmail}.` : base;
  const link = data.confirmationUrl ?? data.siteUrl;
  const validity = data.validMinutes
    ? `The link and the code are valid for ${data.validMinutes} minutes and work once.`
    : '';
  const ignore = "If you didn't ask for this, you can ignore this email.";
  const text = [
    intro,
    '',
    `${action}: ${link}`,
    ...(data.token ? ['', `Or enter this code: ${data.token}`] : []),
    ...(validity ? ['', validity] : []),
    '',
    ignore,
    '',
    '— UpNext',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f4f6fb;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937">
<table role="presentation" width="100%" style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<tr><td>
<p style="margin:0 0 20px;font-size:20px;font-weight:700;color:#4c1d95">UpNext</p>
<p style="margin:0 0 20px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>
<p style="margin:0 0 20px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#6d28d9;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action)}</a></p>
${data.token ? `<p style="margin:0 0 8px;font-size:14px">Or enter this code:</p>\n<p style="margin:0 0 20px;font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(data.token)}</p>` : ''}
${validity ? `<p style="margin:0 0 12px;font-size:13px;color:#6b7280">${escapeHtml(validity)}</p>` : ''}
<p style="margin:0;font-size:13px;color:#6b7280">${escapeHtml(ignore)}</p>
</td></tr></table>
</body></html>`;
  return { to: data.to, subject, text, html };
}
