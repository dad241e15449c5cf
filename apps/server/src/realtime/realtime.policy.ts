import { callDestination } from '@upnext/contract/realtime';
import { topics } from '@upnext/contract/realtime-topics';
import { VISIT_KEY_PATTERN } from '@upnext/contract/visits';
import type { Db } from '../db/client.ts';
import { may, plainStanding, standingOf } from '../modules/access/access.ts';
import type { Caller, SignedInCaller } from '../modules/access/caller.ts';
import { followedSession } from '../modules/visits/visits.service.ts';
import { type AudienceLookup, userOfSubscribeId } from './realtime.repository.ts';

/**
 * Who may SUBSCRIBE to and SEND where on the STOMP endpoint. Every frame that names a
 * destination is checked here, by the access module's rule; anything not explicitly allowed
 * is refused.
 *
 * - `/topic/user/{subscribeId}` and `/topic/meeting/{subscribeId}`: only the user whose
 *   profile holds that subscribeId (`user.follow`).
 * - `/topic/session/{sessionId}`: whoever may see the session (`session.follow`, the same rule
 *   as the public board): its company's members; anyone when its queue is active and public
 *   or unlisted; a private queue's approved requesters.
 * - `/topic/visit/{key}`: whoever holds a live status link (`token.read` as its bearer); it
 *   delivers the public events of the token's session (`topic` in the decision), so a walk-in
 *   follows a private queue's session without seeing anything the board would not show.
 * - SEND: only to `/app/call`, by signed-in users (`call.send`), and only what the injected
 *   call rule forwards.
 */
/** `topic`: where an allowed subscription's messages come from, when not its destination. */
export type Decision = { allow: true; topic?: string } | { allow: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBSCRIBE_ID = /^[A-Za-z0-9_-]{1,128}$/;

const allow: Decision = { allow: true };
const refuse = (message: string): Decision => ({ allow: false, message });

/** `audience`: the session's audience (cachedSessionAudience, shared by the instance). */
export type TopicDeps = { db: Db; caller: Caller; audience: AudienceLookup };

export async function authorizeSubscribe(
  { db, caller, audience: audienceOf }: TopicDeps,
  destination: string,
): Promise<Decision> {
  const personal = /^\/topic\/(user|meeting)\/([^/]+)$/.exec(destination);
  if (personal) {
    const id = personal[2] ?? '';
    if (caller.kind !== 'user') return refuse(`Sign in to subscribe to ${destination}.`);
    if (!SUBSCRIBE_ID.test(id)) return refuse(`${destination} is not a valid topic.`);
    const owner = await userOfSubscribeId(db, id);
    const standing = await standingOf(db, caller, { kind: 'user', userId: owner ?? '' });
    if (!owner || !may(standing, 'user.follow')) {
      return refuse(`You may only subscribe to your own ${personal[1]} topic.`);
    }
    return allow;
  }
  const session = /^\/topic\/session\/([^/]+)$/.exec(destination);
  if (session) {
    const id = session[1] ?? '';
    if (!UUID.test(id)) return refuse(`${destination} is not a valid topic.`);
    const audience = await audienceOf(id);
    // The same answer for a missing and a hidden session: topics do not reveal what exists.
    const hidden = refuse(`You may not follow session ${id}.`);
    if (!audience) return hidden;
    const standing = await standingOf(db, caller, { kind: 'session', ...audience });
    return may(standing, 'session.follow') ? allow : hidden;
  }
  const visit = /^\/topic\/visit\/([^/]+)$/.exec(destination);
  if (visit) {
    // The key is a credential: never echoed in an answer (nor, through it, in a log).
    const key = visit[1] ?? '';
    const sessionId = VISIT_KEY_PATTERN.test(key) ? await followedSession(db, key) : null;
    if (!sessionId) return refuse('This status link does not name a visit in progress.');
    return { allow: true, topic: topics.session(sessionId) };
  }
  return refuse(`There is no topic ${destination}.`);
}

/** SEND is only for call signalling; the call rule then decides where (and whether) it goes. */
export function authorizeSendDestination(caller: Caller, destination: string): Decision {
  if (destination !== callDestination) {
    return refuse(`Messages may only be sent to ${callDestination}.`);
  }
  if (!may(plainStanding(caller), 'call.send')) return refuse('Sign in to place calls.');
  return allow;
}

/**
 * The rule for `/app/call` (PRODUCT.md): a call message goes only between the staff member who
 * started the meeting and the holder of the session's token named in `meta`. The meetings
 * module implements it (`modules/meetings/meetings.relay.ts`, injected by app.ts).
 */
export type CallDecision =
  | {
      allow: true;
      /** `/topic/meeting/{subscribeId}` of the other party. */
      destination: string;
      /** What to forward, when the rule normalised the message (else the message as sent). */
      body?: unknown;
      /** Runs once the message has been forwarded (e.g. telling both parties what it changed). */
      afterForward?: () => Promise<void>;
    }
  | { allow: false; message: string };

export type CallAuthorizer = (caller: SignedInCaller, message: unknown) => Promise<CallDecision>;
