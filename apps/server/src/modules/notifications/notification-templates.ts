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

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function place(data: TokenMessageData): string {
  if (!data.position) return '';
  const wait = data.estimatedWaitMinutes ? `, about ${data.estimatedWaitMinutes} min` : '';
  return `You are number ${data.position} in line${wait}.`;
}

function copyFor(kind: NotificationKind, d: TokenMessageData) {
  const at = d.counter ? ` Please go to ${d.counter}.` : '';
  switch (kind) {
    case 'token_issued':
      return {
        subject: `Your place at ${d.companyName}: ${d.displayNumber}`,
        lines: [`Your token for ${d.queueName} is ${d.displayNumber}.`, place(d)],
        sms: `${d.companyName}: your token is ${d.displayNumber}. ${place(d)} Follow it live: ${d.statusUrl}`,
      };
    case 'turn_approaching':
      return {
        subject: `Almost your turn: ${d.displayNumber}`,
        lines: [
          `${d.displayNumber} at ${d.queueName} will be called soon.`,
          place(d),
          'Please make your way back if you stepped out.',
        ],
        sms: `${d.companyName}: almost your turn (${d.displayNumber}). ${place(d)} ${d.statusUrl}`,
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
          d.reason ? `Reason: ${d.reason}` : '',
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
          d.reason ? `Reason: ${d.reason}` : '',
        ],
        sms: `${d.companyName}: ${d.amount ?? ''} for ${d.displayNumber} is being refunded.`,
      };
  }
}

/** Short, plain and branded: the email (text and HTML) and the SMS of one event. */
export function renderTokenMessage(
  kind: NotificationKind,
  data: TokenMessageData,
): RenderedMessage {
  const copy = copyFor(kind, data);
  const lines = copy.lines.filter(Boolean);
  const text = [
    ...lines,
    '',
    `Follow your place live: ${data.statusUrl}`,
    '',
    `${data.companyName}, with UpNext`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:0 auto;padding:24px">
<p style="font-size:13px;color:#0b7285;font-weight:600;margin:0 0 16px">UpNext &middot; ${escapeHtml(data.companyName)}</p>
<p style="font-size:40px;font-weight:700;margin:0 0 16px;letter-spacing:1px">${escapeHtml(data.displayNumber)}</p>
${lines.map((line) => `<p style="font-size:16px;line-height:1.5">${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(data.statusUrl)}" style="display:inline-block;background:#0b7285;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Follow your place live</a></p>
</body></html>`;
  return {
    subject: copy.subject.replace(/,\s*$/, ''),
    text,
    html,
    sms: copy.sms.replace(/\s+/g, ' ').trim(),
  };
}
