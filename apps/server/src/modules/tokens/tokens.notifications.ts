import type { Language } from '@upnext/contract/languages';
import { visitPath } from '@upnext/contract/routes';
import { and, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { NotificationAttachment } from '../../db/schema/notifications.ts';
import { liveTokenStatuses, queueTokens } from '../../db/schema/tokens.ts';
import { dateTimeFormat } from '../../lib/dates.ts';
import {
  bookingCalendarText,
  type NotificationKind,
  renderTokenMessage,
  type TokenMessageData,
} from '../notifications/notification-templates.ts';
import { enqueue, type OutgoingMessage } from '../notifications/notifications.repository.ts';
import { bookingCalendar } from './calendar.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';

export type NotifyDeps = { publicUrl: string; smsEnabled: boolean };

/** "Mon 30 Mar, 09:20" in the session's zone and the holder's language. */
function formatWhen(instant: Date, timeZone: string, language: Language): string {
  return dateTimeFormat(language === 'en' ? 'en-GB' : language, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(instant);
}

/** The token's status link: its holder follows it live there, signed in or not. */
export function statusUrlOf(publicUrl: string, token: Pick<TokenRow, 'statusKey'>) {
  return `${publicUrl}${visitPath(token.statusKey)}`;
}

/** Whether a token's holder can be sent messages: an email address, or a phone and SMS. */
export function reachesHolder(
  deps: Pick<NotifyDeps, 'smsEnabled'>,
  token: Pick<TokenRow, 'visitorEmail' | 'visitorPhone'>,
) {
  return Boolean(token.visitorEmail || (deps.smsEnabled && token.visitorPhone));
}

/** Email (and SMS when configured) of one event to one token's holder, in the transaction. */
export async function notifyHolder(
  tx: Db | Tx,
  deps: NotifyDeps,
  now: Date,
  kind: NotificationKind,
  session: SessionContext,
  token: TokenRow,
  extra: Partial<TokenMessageData> = {},
  options: { dedupe?: string; attachments?: NotificationAttachment[] } = {},
) {
  const { dedupe, attachments } = options;
  if (!reachesHolder(deps, token)) return;
  const data: TokenMessageData = {
    companyName: session.companyName,
    queueName: session.queueName,
    displayNumber: token.displayNumber,
    counter: session.subQueueName,
    statusUrl: statusUrlOf(deps.publicUrl, token),
    ...(token.slotStartsAt
      ? { when: formatWhen(token.slotStartsAt, session.timezone, token.language) }
      : {}),
    ...extra,
  };
  const message = renderTokenMessage(kind, data, token.language);
  const messages: OutgoingMessage[] = [];
  if (token.visitorEmail) {
    messages.push({
      channel: 'email',
      recipient: token.visitorEmail,
      template: kind,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(attachments ? { attachments } : {}),
      ...(dedupe ? { dedupeKey: `${dedupe}:email` } : {}),
    });
  }
  if (deps.smsEnabled && token.visitorPhone) {
    messages.push({
      channel: 'sms',
      recipient: token.visitorPhone,
      template: kind,
      text: message.sms,
      ...(dedupe ? { dedupeKey: `${dedupe}:sms` } : {}),
    });
  }
  await enqueue(tx, messages, now);
}

/** The issued token or the confirmed booking (with its calendar file). */
export async function notifyIssued(
  tx: Tx,
  deps: NotifyDeps,
  now: Date,
  session: SessionContext,
  token: TokenRow,
  /** Its place when already known (it joined at the end of the line). */
  known?: number,
) {
  if (token.kind === 'walk_in') {
    const position = known ?? (await repo.positionInLine(tx, token, now));
    await notifyHolder(tx, deps, now, 'token_issued', session, token, { position });
    return;
  }
  await notifyBooking(tx, deps, now, session, token, 'booking_confirmed');
}

/** A booking confirmed or moved to another slot, with its calendar file (the same event's UID). */
export async function notifyBooking(
  tx: Tx,
  deps: NotifyDeps,
  now: Date,
  session: SessionContext,
  token: TokenRow,
  kind: 'booking_confirmed' | 'booking_moved',
) {
  const slot = await repo.bookingContext(
    tx,
    token.sessionServiceId as string,
    token.slotNo as number,
  );
  if (!slot) return;
  const calendar = {
    filename: `booking-${token.displayNumber}.ics`,
    contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    content: calendarFor(deps, session, token, slot, now),
  };
  await notifyHolder(
    tx,
    deps,
    now,
    kind,
    session,
    token,
    { serviceName: slot.serviceName },
    { attachments: [calendar] },
  );
}

/** The booking as an iCalendar event: for the confirmation mail and the details screen. */
export function calendarFor(
  deps: NotifyDeps,
  session: SessionContext,
  token: TokenRow,
  slot: { serviceName: string; slotStartsAt: Date; slotEndsAt: Date },
  stamp: Date,
): string {
  return bookingCalendar({
    uid: `${token.id}@upnext`,
    start: slot.slotStartsAt,
    end: slot.slotEndsAt,
    ...bookingCalendarText(
      {
        serviceName: slot.serviceName,
        companyName: session.companyName,
        queueName: session.queueName,
        displayNumber: token.displayNumber,
      },
      token.language,
    ),
    location: session.subQueueName
      ? `${session.companyName}, ${session.subQueueName}`
      : session.companyName,
    url: statusUrlOf(deps.publicUrl, token),
    stamp,
    cancelled: token.status === 'cancelled',
  });
}

/**
 * Cancels every live token of a cancelled session, frees their slots and tells their
 * holders; for the sessions module's status change, inside its transaction.
 */
export async function cancelSessionTokens(
  tx: Tx,
  deps: NotifyDeps,
  now: Date,
  sessionId: string,
  reason?: string,
) {
  const session = await repo.findSessionContext(tx, sessionId);
  if (!session) return [];
  const cancelled = await tx
    .update(queueTokens)
    .set({
      status: 'cancelled',
      cancelledAt: now,
      cancelReason: 'session_cancelled',
      updatedAt: now,
    })
    .where(
      and(
        eq(queueTokens.sessionId, sessionId),
        inArray(queueTokens.status, [...liveTokenStatuses]),
      ),
    )
    .returning();
  for (const token of cancelled) {
    if (token.sessionServiceId && token.slotNo !== null) {
      await repo.changeBookedCount(tx, token.sessionServiceId, token.slotNo, -1);
    }
    await notifyHolder(
      tx,
      deps,
      now,
      'session_cancelled',
      session,
      token,
      reason ? { reason } : {},
    );
  }
  return cancelled;
}

/**
 * Reminders of bookings starting within `hoursBefore`, for bookings made earlier than that
 * (someone who booked an hour ahead needs no reminder). Once per booking (dedupe key).
 */
export async function enqueueDueReminders(db: Db, deps: NotifyDeps, now: Date, hoursBefore = 24) {
  const horizon = new Date(now.getTime() + hoursBefore * 3_600_000);
  const due = await db
    .select()
    .from(queueTokens)
    .where(
      and(
        eq(queueTokens.kind, 'booking'),
        inArray(queueTokens.status, ['booked', 'waiting']),
        isNotNull(queueTokens.slotStartsAt),
        gte(queueTokens.slotStartsAt, now),
        lte(queueTokens.slotStartsAt, horizon),
        sql`${queueTokens.joinedAt} < ${queueTokens.slotStartsAt} - make_interval(hours => ${hoursBefore})`,
      ),
    )
    .limit(500);
  for (const token of due) {
    const session = await repo.findSessionContext(db, token.sessionId);
    if (!session) continue;
    const slot = await repo.bookingContext(
      db,
      token.sessionServiceId as string,
      token.slotNo as number,
    );
    await notifyHolder(
      db,
      deps,
      now,
      'booking_reminder',
      session,
      token,
      slot ? { serviceName: slot.serviceName } : {},
      { dedupe: `reminder:${token.id}` },
    );
  }
  return due.length;
}
