import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { serviceAreas, serviceTypes, sessionServices } from '../../db/schema/index.ts';
import { queueTokens } from '../../db/schema/tokens.ts';

type Queryable = Db | Tx;

/** The token a status link names (its key is unique). */
export async function tokenOfKey(db: Queryable, key: string) {
  const [row] = await db.select().from(queueTokens).where(eq(queueTokens.statusKey, key));
  return row;
}

/** The booked service's name. */
export async function serviceNameOf(db: Queryable, sessionServiceId: string) {
  const [row] = await db
    .select({ name: serviceTypes.name })
    .from(sessionServices)
    .innerJoin(serviceTypes, eq(serviceTypes.id, sessionServices.serviceTypeId))
    .where(eq(sessionServices.id, sessionServiceId));
  return row?.name ?? null;
}

/**
 * The queue's place of service when it has exactly one (a queue with several branches does not
 * say which one a session is at, so none is shown rather than a wrong one).
 */
export async function onlyPlaceOf(db: Queryable, queueId: string) {
  const rows = await db
    .select({
      name: serviceAreas.name,
      address: serviceAreas.address,
      city: serviceAreas.city,
      latitude: serviceAreas.latitude,
      longitude: serviceAreas.longitude,
    })
    .from(serviceAreas)
    .where(eq(serviceAreas.queueId, queueId))
    .orderBy(asc(serviceAreas.createdAt))
    .limit(2);
  return rows.length === 1 ? rows[0] : undefined;
}
