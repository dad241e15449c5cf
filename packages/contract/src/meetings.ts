import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

/**
 * Video meetings (PRODUCT.md "Meetings", spec §2, §4, §7): the meeting record and its API,
 * the call signalling sent to `/app/call` and forwarded to `/topic/meeting/{subscribeId}`,
 * and the state events on that same topic.
 */

/** A call not answered within this time becomes `missed` on both sides. */
export const meetingRingMs = 45_000;
/** The largest call message body the relay forwards (an SDP offer is a few KiB). */
export const callMessageMaxBytes = 64 * 1024;

/** Chat files travel peer to peer over the call's data channel in chunks of this many bytes (spec §5, §9). */
export const chatFileChunkBytes = 16_384;
/** The largest chat file a party sends or accepts (the receiver holds it in memory to check it). */
export const chatFileMaxBytes = 256 * 1024 * 1024;
/** The longest chat message, in characters, after trimming. */
export const chatMessageMaxLength = 2000;

export const meetingStates = ['ringing', 'active', 'ended', 'declined', 'missed'] as const;
export const meetingStateSchema = z.enum(meetingStates);
export type MeetingState = z.infer<typeof meetingStateSchema>;
/** States in which signalling still flows; the others are final. */
export const liveMeetingStates: readonly MeetingState[] = ['ringing', 'active'];

/** `POST /meetings`: staff ring the holder of the token they are serving. */
export const startMeetingInputSchema = z
  .object({ sessionId: idSchema, tokenId: idSchema })
  .meta({ id: 'StartMeetingInput' });
export type StartMeetingInput = z.infer<typeof startMeetingInputSchema>;

export const meetingParamsSchema = z.object({ meetingId: idSchema });

/** `GET /meetings?mine=true&state=ringing`: the caller's own meetings, newest first. */
export const listMeetingsQuerySchema = z.object({
  mine: z.literal('true').describe('Only your own meetings can be listed'),
  state: meetingStateSchema.optional(),
});

export const meetingSchema = z
  .object({
    id: idSchema,
    /** With sessionId and id: the meeting screen's route `/admin/meeting/{queueId}/{sessionId}/{meetingId}`. */
    queueId: idSchema,
    sessionId: idSchema,
    tokenId: idSchema,
    /** The token as called out, e.g. "A-017". */
    tokenLabel: z.string(),
    companyName: z.string(),
    queueName: z.string(),
    state: meetingStateSchema,
    staffUserId: idSchema,
    staffName: z.string(),
    visitorUserId: idSchema,
    visitorName: z.string(),
    /** The caller's side of the call. */
    role: z.enum(['staff', 'visitor']),
    createdAt: timestampSchema,
    /** Still ringing after this instant, the call is missed. */
    ringingUntil: timestampSchema,
    answeredAt: timestampSchema.nullable(),
    endedAt: timestampSchema.nullable(),
  })
  .meta({ id: 'Meeting' });
export type Meeting = z.infer<typeof meetingSchema>;

/** `GET /meetings/{meetingId}/ice-servers`: for `new RTCPeerConnection({ iceServers })`. */
export const iceServersSchema = z
  .object({
    iceServers: z.array(
      z.object({
        urls: z.array(z.string()),
        username: z.string().optional(),
        credential: z.string().optional(),
      }),
    ),
    /** When the TURN credentials stop working (null without TURN): fetch again for a new call. */
    expiresAt: timestampSchema.nullable(),
  })
  .meta({ id: 'IceServers' });
export type IceServers = z.infer<typeof iceServersSchema>;

const tag = 'meetings';
const partyErrors = ['validation_failed', 'unauthorized', 'meeting_not_found'] as const;

/** The meeting API; the signalling itself goes over STOMP (`/app/call`, below). */
export const meetingEndpoints = {
  startMeeting: endpoint({
    method: 'POST',
    path: '/meetings',
    tag,
    summary:
      'Ring the visitor holding the token being called or served (whoever may operate the session)',
    body: startMeetingInputSchema,
    responses: { 201: meetingSchema },
    errors: [
      ...signedInErrors,
      'not_found',
      'session_not_found',
      'token_not_found',
      'video_not_offered',
      'token_not_in_service',
      'visitor_not_reachable',
      'meeting_in_progress',
      'plan_limit_reached',
    ],
  }),
  listMeetings: endpoint({
    method: 'GET',
    path: '/meetings',
    tag,
    summary:
      "The caller's own meetings, newest first (state=ringing: a call waiting to be answered)",
    query: listMeetingsQuerySchema,
    responses: { 200: z.array(meetingSchema) },
    errors: ['validation_failed', 'unauthorized'],
  }),
  getMeeting: endpoint({
    method: 'GET',
    path: '/meetings/:meetingId',
    tag,
    summary: 'A meeting, for its two parties only (with the ids of its meeting screen route)',
    params: meetingParamsSchema,
    responses: { 200: meetingSchema },
    errors: partyErrors,
  }),
  endMeeting: endpoint({
    method: 'POST',
    path: '/meetings/:meetingId/end',
    tag,
    summary: 'Hang up (either party): a ringing or active meeting ends',
    params: meetingParamsSchema,
    responses: { 200: meetingSchema },
    errors: [...partyErrors, 'meeting_not_live'],
  }),
  getIceServers: endpoint({
    method: 'GET',
    path: '/meetings/:meetingId/ice-servers',
    tag,
    summary:
      "ICE servers for the caller's peer connection in a live meeting: STUN, and TURN with a short-lived credential of the caller's own",
    params: meetingParamsSchema,
    responses: { 200: iceServersSchema },
    errors: [...partyErrors, 'meeting_not_live'],
  }),
};

// --- Signalling: SEND to /app/call, forwarded to the other party's /topic/meeting/{subscribeId} ---

/**
 * `meta` names the session and the queue token (its id) the meeting is for. The server sets
 * `email` to the sender's account email (empty for a phone-only account) and `meetingId` to the
 * meeting's id before forwarding, so the receiver may trust both.
 */
const callMetaSchema = z
  .object({
    sessionId: idSchema,
    token: idSchema,
    email: z.string().max(254),
    meetingId: idSchema.optional(),
  })
  .strict();

const description = (type: 'offer' | 'answer') =>
  z.object({ type: z.literal(type), sdp: z.string().min(1).max(callMessageMaxBytes) }).strict();

/** RTCIceCandidateInit. */
const iceCandidateSchema = z
  .object({
    candidate: z.string().max(2048),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.int().min(0).max(1024).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .strict();

/**
 * Spec §3/§7's signalling message. `decline` is ours: the callee refuses, and the caller sees
 * "declined" instead of ringing forever.
 */
export const callMessageSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('offer'), offer: description('offer'), meta: callMetaSchema })
    .strict(),
  z
    .object({ type: z.literal('answer'), answer: description('answer'), meta: callMetaSchema })
    .strict(),
  z
    .object({ type: z.literal('candidate'), candidate: iceCandidateSchema, meta: callMetaSchema })
    .strict(),
  z.object({ type: z.literal('exit'), meta: callMetaSchema }).strict(),
  z.object({ type: z.literal('decline'), meta: callMetaSchema }).strict(),
]);
export type CallMessage = z.infer<typeof callMessageSchema>;
export type CallMessageType = CallMessage['type'];

/** Sent by the server to both parties whenever a meeting changes state (missed included). */
export const meetingStateEventSchema = z.object({
  type: z.literal('meeting.state'),
  meetingId: idSchema,
  queueId: idSchema,
  sessionId: idSchema,
  tokenId: idSchema,
  state: meetingStateSchema,
  at: timestampSchema,
});
export type MeetingStateEvent = z.infer<typeof meetingStateEventSchema>;

/** Anything arriving on `/topic/meeting/{subscribeId}`. */
export const meetingTopicMessageSchema = z.union([callMessageSchema, meetingStateEventSchema]);
export type MeetingTopicMessage = z.infer<typeof meetingTopicMessageSchema>;
