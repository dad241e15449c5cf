import { defaultLanguage, type Language, languages } from '@upnext/contract/languages';
import { escapeHtml } from '../../lib/html.ts';

/** What every visitor message may mention. */
export type TokenMessageData = {
  companyName: string;
  queueName: string;
  displayNumber: string;
  /** The counter, desk or practitioner (sub-queue), when known. */
  counter: string | null;
  /** Where the visitor follows their place live. */
  statusUrl: string;
  position?: number | null;
  estimatedWaitMinutes?: number | null;
  /** "Mon 30 Mar, 09:20", already in the company's zone. */
  when?: string;
  serviceName?: string;
  reason?: string;
  /** A payment's amount, formatted ("£25.00"). */
  amount?: string;
};

export type NotificationKind =
  | 'token_issued'
  | 'turn_approaching'
  | 'called'
  | 'booking_confirmed'
  | 'booking_moved'
  | 'booking_reminder'
  | 'session_cancelled'
  | 'payment_received'
  | 'payment_refunded';

export type RenderedMessage = {
  subject: string;
  text: string;
  html: string;
  sms: string;
};

/** One language's words for every message: the one place they are written. */
type Texts = {
  place: (position: number, waitMinutes: number | null | undefined) => string;
  goTo: (counter: string) => string;
  reason: (reason: string) => string;
  followLive: string;
  signature: (companyName: string) => string;
  /** A booking's calendar event (.ics): its title and description. */
  calendar: (b: CalendarBooking) => { summary: string; description: string };
  copy: (kind: NotificationKind, d: TokenMessageData, place: string, at: string) => Copy;
};

type Copy = { subject: string; lines: string[]; sms: string };

type CalendarBooking = {
  serviceName: string;
  companyName: string;
  queueName: string;
  displayNumber: string;
};

const english: Texts = {
  place: (position, wait) =>
    `You are number ${position} in line${wait ? `, about ${wait} min` : ''}.`,
  goTo: (counter) => ` Please go to ${counter}.`,
  reason: (reason) => `Reason: ${reason}`,
  followLive: 'Follow your place live',
  signature: (companyName) => `${companyName}, with UpNext`,
  calendar: (b) => ({
    summary: `${b.serviceName} at ${b.companyName} (${b.displayNumber})`,
    description: `Your booking ${b.displayNumber} for ${b.serviceName} in ${b.queueName}.`,
  }),
  copy(kind, d, place, at) {
    switch (kind) {
      case 'token_issued':
        return {
          subject: `Your place at ${d.companyName}: ${d.displayNumber}`,
          lines: [`Your token for ${d.queueName} is ${d.displayNumber}.`, place],
          sms: `${d.companyName}: your token is ${d.displayNumber}. ${place} Follow it live: ${d.statusUrl}`,
        };
      case 'turn_approaching':
        return {
          subject: `Almost your turn: ${d.displayNumber}`,
          lines: [
            `${d.displayNumber} at ${d.queueName} will be called soon.`,
            place,
            'Please make your way back if you stepped out.',
          ],
          sms: `${d.companyName}: almost your turn (${d.displayNumber}). ${place} ${d.statusUrl}`,
        };
      case 'called':
        return {
          subject: `It is your turn: ${d.displayNumber}`,
          lines: [`${d.displayNumber}, it is your turn at ${d.queueName}.${at}`],
          sms: `${d.companyName}: it is your turn (${d.displayNumber}).${at}`,
        };
      case 'booking_confirmed':
        return {
          subject: `Booking confirmed: ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `Your booking ${d.displayNumber} for ${d.serviceName ?? d.queueName} at ${d.companyName} is confirmed for ${d.when ?? 'the time you chose'}.`,
            'The calendar file attached adds it to your calendar.',
          ],
          sms: `${d.companyName}: booking ${d.displayNumber} confirmed for ${d.when ?? ''}. Details: ${d.statusUrl}`,
        };
      case 'booking_moved':
        return {
          subject: `Booking moved: ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `Your booking at ${d.companyName} for ${d.serviceName ?? d.queueName} has moved to ${d.when ?? 'a new time'}. Your number is now ${d.displayNumber}.`,
            'The calendar file attached updates the event in your calendar.',
          ],
          sms: `${d.companyName}: your booking moved to ${d.when ?? ''} (${d.displayNumber}). Details: ${d.statusUrl}`,
        };
      case 'booking_reminder':
        return {
          subject: `Reminder: ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `A reminder of your booking ${d.displayNumber} at ${d.companyName}, ${d.when ?? ''}.`,
            'If you cannot come, please cancel so someone else can have the time.',
          ],
          sms: `${d.companyName}: reminder of your booking ${d.displayNumber}, ${d.when ?? ''}. ${d.statusUrl}`,
        };
      case 'session_cancelled':
        return {
          subject: `Cancelled: ${d.queueName} at ${d.companyName}`,
          lines: [
            `We are sorry: the session of ${d.queueName} you were waiting for has been cancelled, and your ${d.displayNumber} with it.`,
            d.reason ? english.reason(d.reason) : '',
            'Anything you paid will be refunded.',
          ],
          sms: `${d.companyName}: sorry, ${d.queueName} was cancelled; your ${d.displayNumber} is cancelled.`,
        };
      case 'payment_received':
        return {
          subject: `Receipt: ${d.amount ?? ''} paid to ${d.companyName}`,
          lines: [
            `We received your payment of ${d.amount ?? ''} for ${d.displayNumber} at ${d.queueName}.`,
            'Keep this email as your receipt.',
          ],
          sms: `${d.companyName}: payment of ${d.amount ?? ''} received for ${d.displayNumber}.`,
        };
      case 'payment_refunded':
        return {
          subject: `Refund of ${d.amount ?? ''} from ${d.companyName}`,
          lines: [
            `${d.amount ?? ''} paid for ${d.displayNumber} at ${d.queueName} is being refunded to your card.`,
            d.reason ? english.reason(d.reason) : '',
          ],
          sms: `${d.companyName}: ${d.amount ?? ''} for ${d.displayNumber} is being refunded.`,
        };
    }
  },
};

const french: Texts = {
  place: (position, wait) =>
    `Vous êtes le numéro ${position} dans la file${wait ? `, environ ${wait} min d’attente` : ''}.`,
  goTo: (counter) => ` Veuillez vous rendre au ${counter}.`,
  reason: (reason) => `Motif : ${reason}`,
  followLive: 'Suivre votre place en direct',
  signature: (companyName) => `${companyName}, avec UpNext`,
  calendar: (b) => ({
    summary: `${b.serviceName} chez ${b.companyName} (${b.displayNumber})`,
    description: `Votre réservation ${b.displayNumber} pour ${b.serviceName} à ${b.queueName}.`,
  }),
  copy(kind, d, place, at) {
    switch (kind) {
      case 'token_issued':
        return {
          subject: `Votre place chez ${d.companyName} : ${d.displayNumber}`,
          lines: [`Votre ticket pour ${d.queueName} est le ${d.displayNumber}.`, place],
          sms: `${d.companyName} : votre ticket est le ${d.displayNumber}. ${place} Suivez-le en direct : ${d.statusUrl}`,
        };
      case 'turn_approaching':
        return {
          subject: `Bientôt votre tour : ${d.displayNumber}`,
          lines: [
            `Le ${d.displayNumber} sera bientôt appelé à ${d.queueName}.`,
            place,
            'Si vous êtes sorti, merci de revenir.',
          ],
          sms: `${d.companyName} : bientôt votre tour (${d.displayNumber}). ${place} ${d.statusUrl}`,
        };
      case 'called':
        return {
          subject: `C’est votre tour : ${d.displayNumber}`,
          lines: [`${d.displayNumber}, c’est votre tour à ${d.queueName}.${at}`],
          sms: `${d.companyName} : c’est votre tour (${d.displayNumber}).${at}`,
        };
      case 'booking_confirmed':
        return {
          subject: `Réservation confirmée : ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `Votre réservation ${d.displayNumber} pour ${d.serviceName ?? d.queueName} chez ${d.companyName} est confirmée pour ${d.when ?? 'l’horaire choisi'}.`,
            'Le fichier de calendrier joint l’ajoute à votre agenda.',
          ],
          sms: `${d.companyName} : réservation ${d.displayNumber} confirmée pour ${d.when ?? ''}. Détails : ${d.statusUrl}`,
        };
      case 'booking_moved':
        return {
          subject: `Réservation déplacée : ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `Votre réservation chez ${d.companyName} pour ${d.serviceName ?? d.queueName} est déplacée au ${d.when ?? 'nouvel horaire'}. Votre numéro est désormais ${d.displayNumber}.`,
            'Le fichier de calendrier joint met à jour l’événement dans votre agenda.',
          ],
          sms: `${d.companyName} : votre réservation est déplacée au ${d.when ?? ''} (${d.displayNumber}). Détails : ${d.statusUrl}`,
        };
      case 'booking_reminder':
        return {
          subject: `Rappel : ${d.serviceName ?? d.queueName}, ${d.when ?? ''}`,
          lines: [
            `Rappel de votre réservation ${d.displayNumber} chez ${d.companyName}, ${d.when ?? ''}.`,
            'Si vous ne pouvez pas venir, merci d’annuler pour libérer l’horaire.',
          ],
          sms: `${d.companyName} : rappel de votre réservation ${d.displayNumber}, ${d.when ?? ''}. ${d.statusUrl}`,
        };
      case 'session_cancelled':
        return {
          subject: `Annulée : ${d.queueName} chez ${d.companyName}`,
          lines: [
            `Nous sommes désolés : la session de ${d.queueName} que vous attendiez a été annulée, et votre ${d.displayNumber} avec elle.`,
            d.reason ? french.reason(d.reason) : '',
            'Tout ce que vous avez payé vous sera remboursé.',
          ],
          sms: `${d.companyName} : désolés, ${d.queueName} est annulée ; votre ${d.displayNumber} est annulé.`,
        };
      case 'payment_received':
        return {
          subject: `Reçu : ${d.amount ?? ''} payé à ${d.companyName}`,
          lines: [
            `Nous avons reçu votre paiement de ${d.amount ?? ''} pour le ${d.displayNumber} à ${d.queueName}.`,
            'Conservez cet e-mail comme reçu.',
          ],
          sms: `${d.companyName} : paiement de ${d.amount ?? ''} reçu pour le ${d.displayNumber}.`,
        };
      case 'payment_refunded':
        return {
          subject: `Remboursement de ${d.amount ?? ''} par ${d.companyName}`,
          lines: [
            `Les ${d.amount ?? ''} payés pour le ${d.displayNumber} à ${d.queueName} sont en cours de remboursement sur votre carte.`,
            d.reason ? french.reason(d.reason) : '',
          ],
          sms: `${d.companyName} : ${d.amount ?? ''} pour le ${d.displayNumber} en cours de remboursement.`,
        };
    }
  },
};

const arabic: Texts = {
  place: (position, wait) =>
    `ترتيبك ${position} في الطابور${wait ? `، والانتظار نحو ${wait} دقيقة` : ''}.`,
  goTo: (counter) => ` يُرجى التوجه إلى ${counter}.`,
  reason: (reason) => `السبب: ${reason}`,
  followLive: 'تابع ترتيبك مباشرةً',
  signature: (companyName) => `${companyName}، عبر UpNext`,
  calendar: (b) => ({
    summary: `${b.serviceName} لدى ${b.companyName} (${b.displayNumber})`,
    description: `حجزك ${b.displayNumber} لـ ${b.serviceName} في ${b.queueName}.`,
  }),
  copy(kind, d, place, at) {
    switch (kind) {
      case 'token_issued':
        return {
          subject: `مكانك لدى ${d.companyName}: ${d.displayNumber}`,
          lines: [`تذكرتك في ${d.queueName} هي ${d.displayNumber}.`, place],
          sms: `${d.companyName}: تذكرتك ${d.displayNumber}. ${place} تابعها مباشرةً: ${d.statusUrl}`,
        };
      case 'turn_approaching':
        return {
          subject: `اقترب دورك: ${d.displayNumber}`,
          lines: [
            `سيُنادى قريبًا على ${d.displayNumber} في ${d.queueName}.`,
            place,
            'إن كنت قد خرجت، فيُرجى العودة.',
          ],
          sms: `${d.companyName}: اقترب دورك (${d.displayNumber}). ${place} ${d.statusUrl}`,
        };
      case 'called':
        return {
          subject: `حان دورك: ${d.displayNumber}`,
          lines: [`${d.displayNumber}، حان دورك في ${d.queueName}.${at}`],
          sms: `${d.companyName}: حان دورك (${d.displayNumber}).${at}`,
        };
      case 'booking_confirmed':
        return {
          subject: `تأكيد الحجز: ${d.serviceName ?? d.queueName}، ${d.when ?? ''}`,
          lines: [
            `تأكّد حجزك ${d.displayNumber} لـ ${d.serviceName ?? d.queueName} لدى ${d.companyName} في ${d.when ?? 'الموعد الذي اخترته'}.`,
            'يضيف ملف التقويم المرفق الموعد إلى تقويمك.',
          ],
          sms: `${d.companyName}: تأكّد الحجز ${d.displayNumber} في ${d.when ?? ''}. التفاصيل: ${d.statusUrl}`,
        };
      case 'booking_moved':
        return {
          subject: `نُقل الحجز: ${d.serviceName ?? d.queueName}، ${d.when ?? ''}`,
          lines: [
            `نُقل حجزك لدى ${d.companyName} لـ ${d.serviceName ?? d.queueName} إلى ${d.when ?? 'موعد جديد'}. رقمك الآن ${d.displayNumber}.`,
            'يحدّث ملف التقويم المرفق الموعد في تقويمك.',
          ],
          sms: `${d.companyName}: نُقل حجزك إلى ${d.when ?? ''} (${d.displayNumber}). التفاصيل: ${d.statusUrl}`,
        };
      case 'booking_reminder':
        return {
          subject: `تذكير: ${d.serviceName ?? d.queueName}، ${d.when ?? ''}`,
          lines: [
            `تذكير بحجزك ${d.displayNumber} لدى ${d.companyName}، ${d.when ?? ''}.`,
            'إن لم تستطع الحضور، فيُرجى الإلغاء ليستفيد غيرك من الموعد.',
          ],
          sms: `${d.companyName}: تذكير بحجزك ${d.displayNumber}، ${d.when ?? ''}. ${d.statusUrl}`,
        };
      case 'session_cancelled':
        return {
          subject: `أُلغيت: ${d.queueName} لدى ${d.companyName}`,
          lines: [
            `نعتذر: أُلغيت جلسة ${d.queueName} التي كنت تنتظرها، وأُلغيت معها تذكرتك ${d.displayNumber}.`,
            d.reason ? arabic.reason(d.reason) : '',
            'سيُرد إليك كل ما دفعته.',
          ],
          sms: `${d.companyName}: نعتذر، أُلغيت ${d.queueName}؛ وأُلغيت تذكرتك ${d.displayNumber}.`,
        };
      case 'payment_received':
        return {
          subject: `إيصال: دفع ${d.amount ?? ''} إلى ${d.companyName}`,
          lines: [
            `استلمنا دفعتك البالغة ${d.amount ?? ''} عن ${d.displayNumber} في ${d.queueName}.`,
            'احتفظ بهذه الرسالة إيصالًا.',
          ],
          sms: `${d.companyName}: استُلمت دفعة ${d.amount ?? ''} عن ${d.displayNumber}.`,
        };
      case 'payment_refunded':
        return {
          subject: `استرداد ${d.amount ?? ''} من ${d.companyName}`,
          lines: [
            `يجري ردّ ${d.amount ?? ''} المدفوعة عن ${d.displayNumber} في ${d.queueName} إلى بطاقتك.`,
            d.reason ? arabic.reason(d.reason) : '',
          ],
          sms: `${d.companyName}: يجري ردّ ${d.amount ?? ''} عن ${d.displayNumber}.`,
        };
    }
  },
};

const textsOf: Record<Language, Texts> = { en: english, fr: french, ar: arabic };

/** Short, plain and branded: the email (text and HTML) and the SMS of one event, in `language`. */
export function renderTokenMessage(
  kind: NotificationKind,
  data: TokenMessageData,
  language: Language = defaultLanguage,
): RenderedMessage {
  const texts = textsOf[language];
  const place = data.position ? texts.place(data.position, data.estimatedWaitMinutes) : '';
  const copy = texts.copy(kind, data, place, data.counter ? texts.goTo(data.counter) : '');
  const lines = copy.lines.filter(Boolean);
  const text = [
    ...lines,
    '',
    `${texts.followLive}: ${data.statusUrl}`,
    '',
    texts.signature(data.companyName),
  ].join('\n');
  const html = `<!doctype html><html lang="${language}" dir="${languages[language].dir}"><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<p style="font-size:13px;color:#0b7285;font-weight:600;margin:0 0 16px">UpNext &middot; ${escapeHtml(data.companyName)}</p>
<p style="font-size:40px;font-weight:700;margin:0 0 16px;letter-spacing:1px" dir="ltr">${escapeHtml(data.displayNumber)}</p>
${lines.map((line) => `<p style="font-size:16px;line-height:1.5">${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(data.statusUrl)}" style="display:inline-block;background:#0b7285;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(texts.followLive)}</a></p>
</body></html>`;
  return {
    subject: copy.subject.replace(/[,،]\s*$/, ''),
    text,
    html,
    sms: copy.sms.replace(/\s+/g, ' ').trim(),
  };
}

/** A booking's calendar event, in its holder's language. */
export function bookingCalendarText(booking: CalendarBooking, language: Language) {
  return textsOf[language].calendar(booking);
}
