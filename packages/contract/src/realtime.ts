import { z } from 'zod';

/**
 * Realtime over STOMP 1.2 at `/wss?token=<access token>` (PRODUCT.md "Realtime"). Topics, and
 * the JSON bodies the server publishes on them. Session topics are public (display boards,
 * waiting visitors): they never carry personal data, only numbers and labels.
 */
import { sessionStatusSchema } from './sessions.ts';

export * from './realtime-topics.ts';

const at = z.iso.datetime({ offset: true });
/** A token as shown on screens and boards, e.g. "A012": prefix and number, nothing personal. */
const tokenLabel = z.string().min(1).max(32);

// --- /topic/session/{sessionId} ---

export const sessionStateEvent = z.object({
  type: z.literal('session.state'),
  sessionId: z.uuid(),
  /** Paused, closed or cancelled: screens say so as soon as it changes. */
  status: sessionStatusSchema,
  /** The session's notes for visitors (public: the same text the board shows). */
  notes: z.string().max(500),
  nowServing: z.object({ number: z.number().int().min(1), label: tokenLabel }).nullable(),
  /** The live line (the session counts' `waiting`). */
  waitingCount: z.number().int().min(0),
  averageServiceSeconds: z.number().min(0).nullable(),
  /**
   * False when the change only added tokens at the end of the line: nobody's place moved, so
   * a waiting visitor's page need not read its position again. Absent: places may have moved.
   */
  placesMoved: z.boolean().optional(),
  at,
});

export const nowServingEvent = z.object({
  type: z.literal('session.now_serving'),
  sessionId: z.uuid(),
  number: z.number().int().min(1),
  label: tokenLabel,
  /** Where to go (a counter or room name), when the session has service areas. */
  serviceArea: z.string().max(120).nullable(),
  /** True when staff recalled the same token. */
  recall: z.boolean(),
  at,
});

export const sessionEvent = z.discriminatedUnion('type', [sessionStateEvent, nowServingEvent]);
export type SessionEvent = z.infer<typeof sessionEvent>;

// --- /topic/user/{subscribeId} (only its owner may subscribe) ---

const tokenRef = {
  tokenId: z.uuid(),
  sessionId: z.uuid(),
  label: tokenLabel,
};

export const positionChangedEvent = z.object({
  type: z.literal('token.position_changed'),
  ...tokenRef,
  /** 1 = next; tokens ahead in the waiting line plus one. */
  position: z.number().int().min(1),
  estimatedWaitSeconds: z.number().int().min(0).nullable(),
  at,
});

export const turnApproachingEvent = z.object({
  type: z.literal('token.turn_approaching'),
  ...tokenRef,
  position: z.number().int().min(1),
  estimatedWaitSeconds: z.number().int().min(0).nullable(),
  at,
});

export const calledEvent = z.object({
  type: z.literal('token.called'),
  ...tokenRef,
  serviceArea: z.string().max(120).nullable(),
  at,
});

export const cancelledEvent = z.object({
  type: z.literal('token.cancelled'),
  ...tokenRef,
  reason: z.enum(['visitor', 'staff', 'no_show', 'session_cancelled', 'payment']),
  at,
});

/** A booking moved to another slot (its holder or staff rescheduled it): `sessionId` is the new one. */
export const rescheduledEvent = z.object({
  type: z.literal('token.rescheduled'),
  ...tokenRef,
  slotStartsAt: at,
  at,
});

export const userEvent = z.discriminatedUnion('type', [
  positionChangedEvent,
  turnApproachingEvent,
  calledEvent,
  cancelledEvent,
  rescheduledEvent,
]);
export type UserEvent = z.infer<typeof userEvent>;

// /topic/meeting/{subscribeId} and /app/call (spec §7): see meetings.ts.
