import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { sessionStatusSchema } from './sessions.ts';
import { tokenStatusSchema } from './tokens.ts';

/**
 * A token's status link (issue 16): whoever holds it follows that one visit without signing in
 * (a walk-in issued at a desk, a printed ticket's QR, the link in the token's email or SMS),
 * and may leave the queue. The key is the credential: 244 random bits (two version-4 UUIDs'
 * worth, made by the database), shown only to the token's holder and its company's staff; the
 * link stops working when the visit ends.
 */
export const VISIT_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const visitKeySchema = z
  .string()
  .regex(VISIT_KEY_PATTERN, 'Not a status link')
  .meta({ id: 'VisitKey', description: 'The key of a token’s status link (43 characters).' });

/** Where the visit happens, to tell the holder where to go. */
const visitPlaceSchema = z.object({
  name: z.string(),
  address: z.string(),
  city: z.string(),
  /** A map search for the place (coordinates when known, else the address); null without either. */
  mapUrl: z.string().nullable(),
});

/**
 * One visit as its link shows it: the holder's own token and its context, nothing about other
 * visitors (no names, no contact details, no other numbers).
 */
export const visitSchema = z
  .object({
    displayNumber: z.string(),
    status: tokenStatusSchema,
    kind: z.enum(['walk_in', 'booking']),
    /** 1 = next to be called; null unless waiting. */
    position: z.int().nullable(),
    estimatedWaitMinutes: z.int().nullable(),
    /** Waiting within the queue's "turn approaching" distance of the counter. */
    turnApproaching: z.boolean(),
    joinedAt: z.iso.datetime({ offset: true }),
    calledAt: z.iso.datetime({ offset: true }).nullable(),
    slotStartsAt: z.iso.datetime({ offset: true }).nullable(),
    /** The holder may still leave the queue through the link. */
    canLeave: z.boolean(),
    companyName: z.string(),
    queueName: z.string(),
    /** The counter, desk or room a called visitor goes to; null when the session names none. */
    counter: z.string().nullable(),
    /** The booked service; null for a walk-in. */
    serviceName: z.string().nullable(),
    place: visitPlaceSchema.nullable(),
    session: z.object({
      id: z.uuid(),
      status: sessionStatusSchema,
      startsAt: z.iso.datetime({ offset: true }),
      endsAt: z.iso.datetime({ offset: true }),
      timezone: z.string(),
      /** The session's notes for visitors ("Running 15 minutes late"). */
      notes: z.string(),
    }),
  })
  .meta({ id: 'Visit' });
export type Visit = z.infer<typeof visitSchema>;

const keyParams = z.object({ key: visitKeySchema });
const linkErrors = ['validation_failed', 'visit_not_found', 'visit_ended'] as const;

export const visitEndpoints = {
  visit: endpoint({
    method: 'GET',
    path: '/visits/:key',
    tag: 'visits',
    summary: 'A token followed by its status link, without signing in',
    description:
      'visit_not_found for a key that names no token; visit_ended once the token is served, ' +
      'cancelled or marked a no-show. Live: the page subscribes to /topic/visit/{key}.',
    public: true,
    params: keyParams,
    responses: { 200: visitSchema },
    errors: linkErrors,
  }),
  leaveVisit: endpoint({
    method: 'POST',
    path: '/visits/:key/leave',
    tag: 'visits',
    summary: 'Leave the queue through the status link (the same rule as cancelling one’s token)',
    public: true,
    params: keyParams,
    responses: { 200: visitSchema },
    errors: [...linkErrors, 'invalid_token_transition'],
  }),
};
