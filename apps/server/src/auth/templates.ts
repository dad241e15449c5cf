import { defaultLanguage, type Language, languages } from '@upnext/contract/languages';
import { escapeHtml } from '../lib/html.ts';
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
  | 'no_account'
  | 'team_invitation';

/** The emails of an invitation into a company's team, which name the team (`teamName`). */
type TeamKind = Extract<TemplateKind, 'invite' | 'team_invitation'>;

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
  /** For a notice that verifies nothing: the page its button opens (else the site). */
  pageUrl?: string;
};

type Copy = Record<TemplateKind, { subject: string; intro: string; action: string }>;

/** One language's words for every auth email: the one place they are written. */
type Texts = {
  copy: Copy;
  team: Record<TeamKind, (teamName: string) => { subject: string; intro: string }>;
  newAddress: (email: string) => string;
  validity: (minutes: number) => string;
  orEnterCode: string;
  ignore: string;
};

const english: Texts = {
  copy: {
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
    team_invitation: {
      subject: 'You have been invited to join a team on UpNext',
      intro:
        'A team has invited you to join it on UpNext. Sign in and accept or decline the invitation on your account page.',
      action: 'Open your account page',
    },
  },
  // An invitation into a team names the team, and says the invitee accepts it once signed in.
  team: {
    invite: (teamName) => ({
      subject: `You have been invited to join ${teamName} on UpNext`,
      intro:
        `${teamName} has invited you to join their team on UpNext. Open the invitation, choose a ` +
        'password for your account, then accept the invitation on your account page.',
    }),
    // To someone who has an account already.
    team_invitation: (teamName) => ({
      subject: `You have been invited to join ${teamName} on UpNext`,
      intro:
        `${teamName} has invited you to join their team on UpNext. Sign in and accept or ` +
        'decline the invitation on your account page.',
    }),
  },
  newAddress: (email) => `The new address would be ${email}.`,
  validity: (minutes) => `The link and the code are valid for ${minutes} minutes and work once.`,
  orEnterCode: 'Or enter this code:',
  ignore: "If you didn't ask for this, you can ignore this email.",
};

const french: Texts = {
  copy: {
    signup: {
      subject: 'Confirmez votre compte UpNext',
      intro:
        'Bienvenue sur UpNext. Confirmez votre adresse e-mail pour terminer la création de votre compte.',
      action: 'Confirmer mon e-mail',
    },
    invite: {
      subject: 'Vous êtes invité sur UpNext',
      intro:
        'Vous êtes invité à rejoindre UpNext. Acceptez l’invitation, puis choisissez un mot de passe pour votre compte.',
      action: 'Accepter l’invitation',
    },
    magiclink: {
      subject: 'Votre lien de connexion UpNext',
      intro: 'Utilisez ce lien ou ce code pour vous connecter à UpNext.',
      action: 'Se connecter',
    },
    recovery: {
      subject: 'Réinitialisez votre mot de passe UpNext',
      intro:
        'Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte UpNext.',
      action: 'Choisir un nouveau mot de passe',
    },
    email_change_new: {
      subject: 'Confirmez votre nouvelle adresse e-mail UpNext',
      intro: 'Confirmez cette adresse pour en faire l’adresse e-mail de votre compte UpNext.',
      action: 'Confirmer ma nouvelle adresse',
    },
    email_change_current: {
      subject: 'Confirmez le changement de votre adresse e-mail UpNext',
      intro:
        'Quelqu’un (vous, espérons-le) a demandé à changer l’adresse e-mail de votre compte UpNext. ' +
        'Confirmez aussi depuis cette adresse pour terminer le changement.',
      action: 'Confirmer le changement',
    },
    reauthentication: {
      subject: 'Votre code de confirmation UpNext',
      intro:
        'Saisissez le code ci-dessous dans UpNext pour confirmer qu’il s’agit bien de vous avant de changer votre mot de passe.',
      action: 'Aller sur UpNext',
    },
    existing_account: {
      subject: 'Vous avez déjà un compte UpNext',
      intro:
        'Quelqu’un a essayé de créer un compte UpNext avec cette adresse e-mail, mais vous en avez déjà un. ' +
        'Connectez-vous plutôt, ou réinitialisez votre mot de passe si vous l’avez oublié.',
      action: 'Aller sur UpNext',
    },
    no_account: {
      subject: 'Tentative de connexion à UpNext',
      intro:
        'Quelqu’un a demandé à se connecter à UpNext avec cette adresse e-mail, mais aucun compte n’y est associé. ' +
        'Si c’était vous, inscrivez-vous d’abord.',
      action: 'Aller sur UpNext',
    },
    team_invitation: {
      subject: 'Vous êtes invité à rejoindre une équipe sur UpNext',
      intro:
        'Une équipe vous invite à la rejoindre sur UpNext. Connectez-vous, puis acceptez ou refusez l’invitation sur la page de votre compte.',
      action: 'Ouvrir la page de mon compte',
    },
  },
  team: {
    invite: (teamName) => ({
      subject: `Vous êtes invité à rejoindre ${teamName} sur UpNext`,
      intro:
        `${teamName} vous invite à rejoindre son équipe sur UpNext. Ouvrez l’invitation, choisissez ` +
        'un mot de passe pour votre compte, puis acceptez l’invitation sur la page de votre compte.',
    }),
    team_invitation: (teamName) => ({
      subject: `Vous êtes invité à rejoindre ${teamName} sur UpNext`,
      intro:
        `${teamName} vous invite à rejoindre son équipe sur UpNext. Connectez-vous, puis ` +
        'acceptez ou refusez l’invitation sur la page de votre compte.',
    }),
  },
  newAddress: (email) => `La nouvelle adresse serait ${email}.`,
  validity: (minutes) =>
    `Le lien et le code sont valables ${minutes} minutes et ne fonctionnent qu’une fois.`,
  orEnterCode: 'Ou saisissez ce code :',
  ignore: 'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer cet e-mail.',
};

const arabic: Texts = {
  copy: {
    signup: {
      subject: 'أكّد حسابك في UpNext',
      intro: 'أهلًا بك في UpNext. أكّد بريدك الإلكتروني لإكمال إنشاء حسابك.',
      action: 'تأكيد بريدي الإلكتروني',
    },
    invite: {
      subject: 'لقد دُعيت إلى UpNext',
      intro: 'لقد دُعيت للانضمام إلى UpNext. اقبل الدعوة، ثم اختر كلمة مرور لحسابك.',
      action: 'قبول الدعوة',
    },
    magiclink: {
      subject: 'رابط تسجيل الدخول إلى UpNext',
      intro: 'استخدم هذا الرابط أو الرمز لتسجيل الدخول إلى UpNext.',
      action: 'تسجيل الدخول',
    },
    recovery: {
      subject: 'إعادة تعيين كلمة مرور UpNext',
      intro: 'طلب أحدهم (ونأمل أن تكون أنت) إعادة تعيين كلمة مرور حسابك في UpNext.',
      action: 'اختيار كلمة مرور جديدة',
    },
    email_change_new: {
      subject: 'أكّد بريدك الإلكتروني الجديد في UpNext',
      intro: 'أكّد هذا العنوان ليصبح البريد الإلكتروني لحسابك في UpNext.',
      action: 'تأكيد بريدي الجديد',
    },
    email_change_current: {
      subject: 'أكّد تغيير بريدك الإلكتروني في UpNext',
      intro:
        'طلب أحدهم (ونأمل أن تكون أنت) تغيير البريد الإلكتروني لحسابك في UpNext. ' +
        'أكّد من هذا العنوان أيضًا لإتمام التغيير.',
      action: 'تأكيد التغيير',
    },
    reauthentication: {
      subject: 'رمز التأكيد في UpNext',
      intro: 'أدخل الرمز أدناه في UpNext لتأكيد هويتك قبل تغيير كلمة المرور.',
      action: 'الانتقال إلى UpNext',
    },
    existing_account: {
      subject: 'لديك حساب في UpNext بالفعل',
      intro:
        'حاول أحدهم إنشاء حساب في UpNext بهذا البريد الإلكتروني، لكن لديك حسابًا بالفعل. ' +
        'سجّل الدخول بدلًا من ذلك، أو أعد تعيين كلمة المرور إن نسيتها.',
      action: 'الانتقال إلى UpNext',
    },
    no_account: {
      subject: 'محاولة تسجيل دخول إلى UpNext',
      intro:
        'طلب أحدهم تسجيل الدخول إلى UpNext بهذا البريد الإلكتروني، لكن لا يوجد حساب مرتبط به. ' +
        'إن كنت أنت، فأنشئ حسابًا أولًا.',
      action: 'الانتقال إلى UpNext',
    },
    team_invitation: {
      subject: 'لقد دُعيت للانضمام إلى فريق في UpNext',
      intro:
        'دعاك فريق للانضمام إليه في UpNext. سجّل الدخول، ثم اقبل الدعوة أو ارفضها من صفحة حسابك.',
      action: 'فتح صفحة حسابي',
    },
  },
  team: {
    invite: (teamName) => ({
      subject: `لقد دُعيت للانضمام إلى ${teamName} في UpNext`,
      intro:
        `دعتك ${teamName} للانضمام إلى فريقها في UpNext. افتح الدعوة، واختر كلمة مرور لحسابك، ` +
        'ثم اقبل الدعوة من صفحة حسابك.',
    }),
    team_invitation: (teamName) => ({
      subject: `لقد دُعيت للانضمام إلى ${teamName} في UpNext`,
      intro:
        `دعتك ${teamName} للانضمام إلى فريقها في UpNext. سجّل الدخول، ثم اقبل الدعوة أو ` +
        'ارفضها من صفحة حسابك.',
    }),
  },
  newAddress: (email) => `سيكون العنوان الجديد ${email}.`,
  validity: (minutes) => `الرابط والرمز صالحان لمدة ${minutes} دقيقة ويعملان مرة واحدة.`,
  orEnterCode: 'أو أدخل هذا الرمز:',
  ignore: 'إن لم تطلب ذلك، يمكنك تجاهل هذه الرسالة.',
};

const textsOf: Record<Language, Texts> = { en: english, fr: french, ar: arabic };

/** The auth email of `kind`, in `language` (the page's that asked for it; else English). */
export function renderAuthEmail(
  kind: TemplateKind,
  data: TemplateData,
  language: Language = defaultLanguage,
): MailMessage {
  const texts = textsOf[language];
  const { action } = texts.copy[kind];
  const team =
    data.teamName && kind in texts.team ? texts.team[kind as TeamKind](data.teamName) : undefined;
  const subject = team?.subject ?? texts.copy[kind].subject;
  const base = team?.intro ?? texts.copy[kind].intro;
  const intro = data.newEmail ? `${base} ${texts.newAddress(data.newEmail)}` : base;
  const link = data.confirmationUrl ?? data.pageUrl ?? data.siteUrl;
  const validity = data.validMinutes ? texts.validity(data.validMinutes) : '';
  const ignore = texts.ignore;
  const text = [
    intro,
    '',
    `${action}: ${link}`,
    ...(data.token ? ['', `${texts.orEnterCode} ${data.token}`] : []),
    ...(validity ? ['', validity] : []),
    '',
    ignore,
    '',
    '— UpNext',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${language}" dir="${languages[language].dir}"><body style="margin:0;padding:24px;background:#f4f6fb;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937">
<table role="presentation" width="100%" style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:28px">
<tr><td>
<p style="margin:0 0 20px;font-size:20px;font-weight:700;color:#4c1d95">UpNext</p>
<p style="margin:0 0 20px;font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>
<p style="margin:0 0 20px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#6d28d9;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action)}</a></p>
${data.token ? `<p style="margin:0 0 8px;font-size:14px">${escapeHtml(texts.orEnterCode)}</p>\n<p style="margin:0 0 20px;font-size:28px;letter-spacing:6px;font-weight:700" dir="ltr">${escapeHtml(data.token)}</p>` : ''}
${validity ? `<p style="margin:0 0 12px;font-size:13px;color:#6b7280">${escapeHtml(validity)}</p>` : ''}
<p style="margin:0;font-size:13px;color:#6b7280">${escapeHtml(ignore)}</p>
</td></tr></table>
</body></html>`;
  return { to: data.to, subject, text, html };
}
