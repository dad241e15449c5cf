import { cancellableTokenStatuses, type QueueToken } from '@upnext/contract/tokens';
import type { Visit } from '@upnext/contract/visits';
import type { Db, Tx } from '../../db/client.ts';
import { queryAll } from '../../db/query-all.ts';
import { liveTokenStatuses } from '../../db/schema/tokens.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../access/caller.ts';
import { authorizeToken } from '../tokens/tokens.policy.ts';
import type { SessionContext, TokenRow } from '../tokens/tokens.repository.ts';
import * as tokenRepo from '../tokens/tokens.repository.ts';
import { cancelToken, present, type TokensDeps } from '../tokens/tokens.service.ts';
import * as repo from './visits.repository.ts';

type Queryable = Db | Tx;

/**
 * A token's status link (contract visits.ts). Its key stands for the token's holder: the
 * bearer is a `status_link` caller, to whom the one access rule grants that token and nothing
 * else, so reading and leaving go through the same checks and code as the holder's own.
 */
const linkCaller = (token: TokenRow): Caller => ({
  kind: 'status_link',
  tokenId: token.id,
  timezone: undefined,
});

const notFound = () => new AppError('visit_not_found', 'This status link names no visit.');

/** The token and its session while the visit lasts; refused once it has ended. */
async function liveVisit(db: Queryable, key: string, action: 'token.read' | 'token.cancel') {
  const token = await repo.tokenOfKey(db, key);
  if (!token) throw notFound();
  if (!liveTokenStatuses.includes(token.status)) {
    throw new AppError('visit_ended', 'This visit has ended; its status link no longer works.', {
      status: token.status,
    });
  }
  const session = await tokenRepo.findSessionContext(db, token.sessionId);
  if (!session) throw notFound();
  await authorizeToken(db, linkCaller(token), action, token, session);
  return { token, session };
}

/** The session a live link follows: its topic is what `/topic/visit/{key}` delivers. */
export async function followedSession(db: Queryable, key: string): Promise<string | null> {
  try {
    return (await liveVisit(db, key, 'token.read')).session.sessionId;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

function mapUrl(place: {
  address: string;
  city: string;
  latitude: number | null;
  longitude: number | null;
}) {
  const { latitude: lat, longitude: lon } = place;
  if (lat !== null && lon !== null) {
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  }
  const query = [place.address, place.city].filter(Boolean).join(', ');
  return query ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}` : null;
}

async function visitOf(
  db: Queryable,
  token: TokenRow,
  shown: QueueToken,
  session: SessionContext,
): Promise<Visit> {
  const [serviceName, place] = await queryAll(db, [
    async () => (token.sessionServiceId ? repo.serviceNameOf(db, token.sessionServiceId) : null),
    () => repo.onlyPlaceOf(db, session.queueId),
  ]);
  return {
    displayNumber: shown.displayNumber,
    status: shown.status,
    kind: shown.kind,
    position: shown.position,
    estimatedWaitMinutes: shown.estimatedWaitMinutes,
    turnApproaching: shown.position !== null && shown.position <= session.turnApproachingThreshold,
    joinedAt: shown.joinedAt,
    calledAt: shown.calledAt,
    slotStartsAt: shown.slotStartsAt,
    canLeave: cancellableTokenStatuses.includes(shown.status),
    companyName: session.companyName,
    queueName: session.queueName,
    counter: session.subQueueName,
    serviceName,
    place: place
      ? { name: place.name, address: place.address, city: place.city, mapUrl: mapUrl(place) }
      : null,
    session: {
      id: session.sessionId,
      status: session.status,
      startsAt: session.startsAt.toISOString(),
      endsAt: session.endsAt.toISOString(),
      timezone: session.timezone,
      notes: session.visitorNotes,
    },
  };
}

export async function visit(deps: TokensDeps, key: string): Promise<Visit> {
  const { token, session } = await liveVisit(deps.db, key, 'token.read');
  const [shown] = await present(deps, [token], { staff: false });
  if (!shown) throw notFound();
  return visitOf(deps.db, token, shown, session);
}

/** Leaving through the link is the holder's own cancellation (refund rule included). */
export async function leaveVisit(deps: TokensDeps, key: string): Promise<Visit> {
  const { token, session } = await liveVisit(deps.db, key, 'token.cancel');
  const cancelled = await cancelToken(deps, linkCaller(token), { tokenId: token.id });
  return visitOf(deps.db, token, cancelled, session);
}
