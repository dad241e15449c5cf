import { callDestination } from '@upnext/contract/realtime';
import type { Db } from '../db/client.ts';
import type { Caller, SignedInCaller } from '../http/caller.ts';
import { activeRoleIn } from '../modules/companies/membership.repository.ts';
import { hasApprovedRequest } from '../modules/queues/queues.repository.ts';
import { sessionAudience, subscribeIdOf } from './realtime.repository.ts';

/**
 * Who may SUBSCRIBE to and SEND where on the STOMP endpoint. Every frame that names a
 * destination is checked here; anything not explicitly allowed is refused.
 *
 * - `/topic/user/{subscribeId}` and `/topic/meeting/{subscribeId}`: only the user whose
 *   profile holds that subscribeId.
 * - `/topic/session/{sessionId}`: active members of the session's company; anyone (signed in
 *   or not) when the session's queue is public or unlisted and active. Private queues: members
 *   only (join requests have no table yet; approved requesters are to be added here).
 * - SEND: only to `/app/call`, and only what the injected call rule forwards.
 */
export type Decision = { allow: true } | { allow: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBSCRIBE_ID = /^[A-Za-z0-9_-]{1,128}$/;

const allow: Decision = { allow: true };
const refuse = (message: string): Decision => ({ allow: false, message });

export type TopicDeps = { db: Db; caller: Caller };

export async function authorizeSubscribe(
  { db, caller }: TopicDeps,
  destination: string,
): Promise<Decision> {
  const personal = /^\/topic\/(user|meeting)\/([^/]+)$/.exec(destination);
  if (personal) {
    const id = personal[2] ?? '';
    if (caller.kind !== 'user') return refuse(`Sign in to subscribe to ${destination}.`);
    if (!SUBSCRIBE_ID.test(id)) return refuse(`${destination} is not a valid topic.`);
    const own = await subscribeIdOf(db, caller.userId);
    if (own !== id) return refuse(`You may only subscribe to your own ${personal[1]} topic.`);
    return allow;
  }
  const session = /^\/topic\/session\/([^/]+)$/.exec(destination);
  if (session) {
    const id = session[1] ?? '';
    if (!UUID.test(id)) return refuse(`${destination} is not a valid topic.`);
    const audience = await sessionAudience(db, id);
    // The same answer for a missing and a hidden session: topics do not reveal what exists.
    const hidden = refuse(`You may not follow session ${id}.`);
    if (!audience) return hidden;
    if (audience.queueStatus === 'active' && audience.visibility !== 'private') return allow;
    if (caller.kind !== 'user') return hidden;
    const role = await activeRoleIn(db, audience.companyId, caller.userId);
    if (role) return allow;
    // A private queue's approved requesters follow its sessions like any visitor.
    const approved =
      audience.queueStatus === 'active' &&
      (await hasApprovedRequest(db, audience.queueId, caller.userId));
    return approved ? allow : hidden;
  }
  return refuse(`There is no topic ${destination}.`);
}

/** SEND is only for call signalling; the call rule then decides where (and whether) it goes. */
export function authorizeSendDestination(caller: Caller, destination: string): Decision {
  if (destination !== callDestination) {
    return refuse(`Messages may only be sent to ${callDestination}.`);
  }
  if (caller.kind !== 'user') return refuse('Sign in to place calls.');
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
    }
  | { allow: false; message: string };

export type CallAuthorizer = (caller: SignedInCaller, message: unknown) => Promise<CallDecision>;
