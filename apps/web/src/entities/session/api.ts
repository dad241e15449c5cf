import type { SessionQuery, SessionStatusInput } from '@upnext/contract/sessions';
import { sessionEndpoints } from '@upnext/contract/sessions';
import { api } from '../../lib/api-client.ts';

/**
 * The session calls more than one feature makes; each feature keeps its own query keys and
 * decides what a change invalidates on its screens.
 */

/** `POST /queues/sessions/status`: open, pause, close or cancel by the state rules. */
export function setSessionStatus(input: SessionStatusInput) {
  return api.call(sessionEndpoints.setSessionStatus, { body: input });
}

/**
 * `GET /queues/sessions?date=`: the sessions of the sub-queues the signed-in member serves
 * (every session of their companies for owners and admins); `date` defaults to today in the
 * browser's zone (X-user-timezone).
 */
export function getMySessions(date: string | undefined, signal?: AbortSignal) {
  return api.call(sessionEndpoints.mySessions, { query: { date }, signal });
}

/** `POST /queues/sessions/query`: sessions by company, queue, sub-queue, dates and status. */
export function querySessions(query: Partial<SessionQuery>, signal?: AbortSignal) {
  return api.call(sessionEndpoints.querySessions, { body: query, signal });
}
