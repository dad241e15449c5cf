import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  companies,
  companyUsers,
  queues,
  serviceTypes,
  sessionServices,
  sessions,
  slots,
  subQueueStaff,
  subQueues,
} from '../db/schema/index.ts';
import { localDate } from '../lib/dates.ts';
import type { TestApp } from './app.ts';
import { createTestUser, type TestUser } from './users.ts';

const HOUR = 3_600_000;

export type LiveSessionOptions = {
  capacity?: number;
  status?: 'scheduled' | 'open' | 'paused' | 'closed' | 'cancelled';
  mode?: 'walk_in' | 'slots' | 'hybrid';
  visibility?: 'public' | 'unlisted' | 'private';
  tokensPerVisitor?: number;
  turnApproachingThreshold?: number;
  /** Slots of this many minutes across the window, each holding `capacityPerSlot`. */
  slots?: { slotMinutes: number; capacityPerSlot: number };
  /** The window relative to now (hours); by default it began an hour ago and runs 8 hours. */
  startsInHours?: number;
  lengthHours?: number;
  /** The company's plan; Business by default, so plan limits stay out of the way. */
  plan?: 'free' | 'pro' | 'business';
};

/**
 * A company with an owner, a queue with a sub-queue and a service type, and one session
 * around now, made straight in the database for the tokens tests.
 */
export async function createLiveSession(
  t: Pick<TestApp, 'database' | 'keys' | 'config'>,
  options: LiveSessionOptions = {},
) {
  const db = t.database.db;
  const owner = await createTestUser(t);
  const suffix = randomBytes(4).toString('hex');
  const [company] = await db
    .insert(companies)
    .values({
      name: `Clinic ${suffix}`,
      slug: `clinic-${suffix}`,
      timezone: 'UTC',
      plan: options.plan ?? 'business',
    })
    .returning();
  if (!company) throw new Error('company not created');
  await db.insert(companyUsers).values({
    companyId: company.id,
    userId: owner.userId,
    email: owner.email,
    role: 'owner',
    status: 'active',
  });
  const [queue] = await db
    .insert(queues)
    .values({
      companyId: company.id,
      name: 'General practice',
      joinCode: suffix.toUpperCase(),
      tokenPrefix: 'A',
      mode: options.mode ?? 'hybrid',
      visibility: options.visibility ?? 'public',
      tokensPerVisitor: options.tokensPerVisitor ?? 1,
      turnApproachingThreshold: options.turnApproachingThreshold ?? 3,
    })
    .returning();
  if (!queue) throw new Error('queue not created');
  const [subQueue] = await db
    .insert(subQueues)
    .values({ queueId: queue.id, name: 'Counter 1' })
    .returning();
  const [serviceType] = await db
    .insert(serviceTypes)
    .values({ queueId: queue.id, name: 'Consultation', durationMinutes: 10 })
    .returning();
  if (!subQueue || !serviceType) throw new Error('fixtures not created');
  const now = Date.now();
  const startsAt = new Date(now + (options.startsInHours ?? -1) * HOUR);
  const endsAt = new Date(startsAt.getTime() + (options.lengthHours ?? 8) * HOUR);
  const time = (instant: Date) => instant.toISOString().slice(11, 19);
  const [session] = await db
    .insert(sessions)
    .values({
      queueId: queue.id,
      subQueueId: subQueue.id,
      date: localDate(startsAt, 'UTC'),
      startTime: time(startsAt),
      endTime: time(endsAt),
      timezone: 'UTC',
      startsAt,
      endsAt,
      capacity: options.capacity ?? 100,
      status: options.status ?? 'open',
    })
    .returning();
  if (!session) throw new Error('session not created');
  let serviceId: string | undefined;
  let slotStarts: Date[] = [];
  if (options.slots) {
    const [service] = await db
      .insert(sessionServices)
      .values({
        sessionId: session.id,
        serviceTypeId: serviceType.id,
        slotMinutes: options.slots.slotMinutes,
        capacityPerSlot: options.slots.capacityPerSlot,
      })
      .returning();
    if (!service) throw new Error('service not created');
    serviceId = service.id;
    const slotMs = options.slots.slotMinutes * 60_000;
    const count = Math.floor((endsAt.getTime() - startsAt.getTime()) / slotMs);
    slotStarts = Array.from({ length: count }, (_, i) => new Date(startsAt.getTime() + i * slotMs));
    await db.insert(slots).values(
      slotStarts.map((start, i) => ({
        sessionServiceId: service.id,
        slotNo: i + 1,
        startsAt: start,
        endsAt: new Date(start.getTime() + slotMs),
        capacity: options.slots?.capacityPerSlot ?? 0,
      })),
    );
  }
  /** The first slot that starts after now. */
  const futureSlotNo = slotStarts.findIndex((start) => start.getTime() > Date.now()) + 1;

  /** A member of the company; staff are assigned to the session's sub-queue unless told not. */
  async function addStaff(
    role: 'admin' | 'staff' = 'staff',
    options: { assigned?: boolean } = {},
  ): Promise<TestUser> {
    const member = await createTestUser(t);
    await db.insert(companyUsers).values({
      companyId: (company as { id: string }).id,
      userId: member.userId,
      email: member.email,
      role,
      status: 'active',
    });
    if (role === 'staff' && options.assigned !== false) {
      await db
        .insert(subQueueStaff)
        .values({ subQueueId: (subQueue as { id: string }).id, userId: member.userId });
    }
    return member;
  }

  async function setStatus(status: LiveSessionOptions['status'] & string) {
    await db
      .update(sessions)
      .set({ status })
      .where(eq(sessions.id, (session as { id: string }).id));
  }

  return {
    owner,
    company,
    queue,
    subQueue,
    serviceType,
    session,
    serviceId,
    futureSlotNo,
    addStaff,
    setStatus,
  };
}
