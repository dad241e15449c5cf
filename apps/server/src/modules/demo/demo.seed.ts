import type { IntakeQuestion } from '@upnext/contract/intake';
import { sql } from 'drizzle-orm';
import { createUser } from '../../auth/users.service.ts';
import { findUserByEmail } from '../../auth/users.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  appSettings,
  companies,
  companyUsers,
  queues,
  serviceAreas,
  serviceTypes,
  sessionServices,
  sessions,
  slots,
  subQueueStaff,
  subQueues,
  userProfiles,
} from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, localDate, weekday } from '../../lib/dates.ts';
import { newSubscribeId } from '../users/users.repository.ts';

const DEMO_SEEDED_KEY = 'demo_seeded_at';
/** Documented in the README; seeded only when SEED_DEMO_ACCOUNTS allows (not in production by default). */
export const DEMO_PASSWORD = 'harbourview-demo';
export const DEMO_OWNER_EMAIL = 'owner@harbourview.example';
export const DEMO_STAFF_EMAIL = 'staff@harbourview.example';

export type DemoOptions = {
  /** Sign-in accounts for the demo company: an owner and a staff member. */
  accounts?: { passwordHash: () => Promise<string> };
};
export const DEMO_COMPANY_SLUG = 'harbourview-health';
const DEMO_TIMEZONE = 'Europe/London';
/** Today and the next six days, so the demo always has something live and something ahead. */
const DEMO_DAYS = 7;

type SessionPlan = {
  subQueueId: string;
  start: string;
  end: string;
  capacity: number;
  online?: boolean;
  service?: { serviceTypeId: string; slotMinutes: number; capacityPerSlot: number };
};

/**
 * Seeds a demo company on the first start of an installation. The marker row is claimed in
 * the same transaction, so two instances starting together seed once, and deleting the
 * demo company later does not bring it back.
 */
export async function seedDemoData(
  db: Db,
  clock: Clock,
  options: DemoOptions = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(appSettings)
      .values({ key: DEMO_SEEDED_KEY, value: clock().toISOString() })
      .onConflictDoNothing()
      .returning({ key: appSettings.key });
    if (claimed.length === 0) return false;

    const [company] = await tx
      .insert(companies)
      .values({
        name: 'Harbourview Health Centre',
        slug: DEMO_COMPANY_SLUG,
        timezone: DEMO_TIMEZONE,
        currency: 'GBP',
        contactEmail: 'reception@harbourview.example',
        contactPhone: '+44 20 7946 0321',
        // Business: the demo seeds video, online payments and more than Pro's queues allow; a
        // demo plan is granted, not billed (no period end).
        plan: 'business',
        planStatus: 'active',
      })
      .returning({ id: companies.id });
    if (!company) throw new Error('demo company was not created');

    const gp = await createQueue(tx, {
      companyId: company.id,
      name: 'General practice',
      description: 'Same-day appointments with our GPs. Take a token and we will call you in.',
      joinCode: 'HVGP',
      tokenPrefix: 'A',
      mode: 'walk_in',
      subQueues: ['Dr Amelia Perera', 'Dr Kwame Okafor'],
      serviceTypes: [{ name: 'GP consultation', durationMinutes: 12 }],
    });
    const bloods = await createQueue(tx, {
      companyId: company.id,
      name: 'Blood tests',
      description: 'Walk in or book a time. Fasting tests are best booked before 10:00.',
      joinCode: 'HVBLOOD',
      tokenPrefix: 'B',
      mode: 'hybrid',
      // Asked of walk-ins and bookings alike, so the demo shows the questions on both paths.
      intakeQuestions: [
        {
          id: 'fasting',
          label: 'Have you been fasting since midnight?',
          helpText: 'Some tests need it; the nurse checks which.',
          kind: 'choice',
          options: ['Yes', 'No'],
          required: true,
        },
      ],
      subQueues: ['Phlebotomy room 1', 'Phlebotomy room 2'],
      serviceTypes: [
        { name: 'Routine blood test', durationMinutes: 10 },
        { name: 'Glucose tolerance test', durationMinutes: 30 },
      ],
    });
    const video = await createQueue(tx, {
      companyId: company.id,
      name: 'Video consultations',
      description: 'Follow-up consultations by video from home. Booking and payment online.',
      joinCode: 'HVVIDEO',
      tokenPrefix: 'V',
      mode: 'slots',
      online: true,
      priceMinor: 2500,
      currency: 'GBP',
      subQueues: ['Telehealth desk'],
      serviceTypes: [
        { name: 'Follow-up video consultation', durationMinutes: 20, priceMinor: 2500 },
      ],
    });
    // A paid walk-in queue open all day: a newcomer pays for a visit on the sandbox checkout
    // (test card 4242 4242 4242 4242) with nothing to configure. Cancelled at least two hours
    // ahead, a visit is refunded in full.
    const privateConsultation = await createQueue(tx, {
      companyId: company.id,
      name: 'Private consultation',
      description: 'A private video consultation with a GP today. £25, paid online when you join.',
      joinCode: 'HVPRIVATE',
      tokenPrefix: 'P',
      mode: 'walk_in',
      online: true,
      priceMinor: 2500,
      currency: 'GBP',
      cancelNoticeMinutes: 120,
      refundPercent: 100,
      subQueues: ['Private GP'],
      serviceTypes: [{ name: 'Private consultation', durationMinutes: 15 }],
    });

    if (options.accounts) {
      const passwordHash = await options.accounts.passwordHash();
      const now = clock();
      const owner = await demoAccount(tx, DEMO_OWNER_EMAIL, 'Priya Fernando', passwordHash, now);
      const staff = await demoAccount(tx, DEMO_STAFF_EMAIL, 'Sam Okoro', passwordHash, now);
      const members: Array<typeof companyUsers.$inferInsert> = [];
      const assignments: Array<typeof subQueueStaff.$inferInsert> = [];
      if (owner) {
        members.push({
          companyId: company.id,
          userId: owner,
          email: DEMO_OWNER_EMAIL,
          role: 'owner',
          status: 'active',
        });
        // The owner runs telehealth; the staff member a GP list and a phlebotomy room.
        assignments.push({ subQueueId: nth(video.subQueueIds, 0), userId: owner });
        assignments.push({ subQueueId: nth(privateConsultation.subQueueIds, 0), userId: owner });
      }
      if (staff) {
        members.push({
          companyId: company.id,
          userId: staff,
          email: DEMO_STAFF_EMAIL,
          role: 'staff',
          status: 'active',
        });
        assignments.push({ subQueueId: nth(gp.subQueueIds, 0), userId: staff });
        assignments.push({ subQueueId: nth(bloods.subQueueIds, 0), userId: staff });
      }
      if (members.length > 0) await tx.insert(companyUsers).values(members);
      if (assignments.length > 0) await tx.insert(subQueueStaff).values(assignments);
    }

    const today = localDate(clock(), DEMO_TIMEZONE);
    for (let offset = 0; offset < DEMO_DAYS; offset++) {
      const day = addDays(today, offset);
      if (weekday(day) === 0) continue; // closed on Sundays
      const status = offset === 0 ? 'open' : 'scheduled';
      const plans: Array<[string, SessionPlan]> = [
        [gp.id, { subQueueId: nth(gp.subQueueIds, 0), start: '09:00', end: '12:30', capacity: 40 }],
        [gp.id, { subQueueId: nth(gp.subQueueIds, 1), start: '13:30', end: '17:00', capacity: 40 }],
        [
          bloods.id,
          {
            subQueueId: nth(bloods.subQueueIds, 0),
            start: '08:00',
            end: '11:00',
            capacity: 60,
            service: {
              serviceTypeId: nth(bloods.serviceTypeIds, 0),
              slotMinutes: 10,
              capacityPerSlot: 2,
            },
          },
        ],
        [
          video.id,
          {
            subQueueId: nth(video.subQueueIds, 0),
            start: '14:00',
            end: '17:00',
            capacity: 9,
            online: true,
            service: {
              serviceTypeId: nth(video.serviceTypeIds, 0),
              slotMinutes: 20,
              capacityPerSlot: 1,
            },
          },
        ],
        [
          privateConsultation.id,
          {
            subQueueId: nth(privateConsultation.subQueueIds, 0),
            start: '07:00',
            end: '22:00',
            capacity: 60,
            online: true,
          },
        ],
      ];
      for (const [queueId, plan] of plans) {
        await createSession(tx, queueId, day, status, plan);
      }
    }
    return true;
  });
}

/**
 * A confirmed email account with a password and a profile; undefined when the address is
 * already taken (someone else's account is never made a demo owner).
 */
async function demoAccount(
  tx: Tx,
  email: string,
  displayName: string,
  passwordHash: string,
  now: Date,
): Promise<string | undefined> {
  if (await findUserByEmail(tx, email)) return undefined;
  const user = await createUser(tx, {
    email: { address: email, confirmed: true },
    encryptedPassword: passwordHash,
    userMetadata: { full_name: displayName },
    now,
    aud: 'authenticated',
  });
  await tx
    .insert(userProfiles)
    .values({ userId: user.id, displayName, subscribeId: newSubscribeId() });
  return user.id;
}

function nth(ids: string[], index: number): string {
  const id = ids[index];
  if (!id) throw new Error(`demo row ${index} is missing`);
  return id;
}

type QueuePlan = {
  companyId: string;
  name: string;
  description: string;
  joinCode: string;
  tokenPrefix: string;
  mode: 'walk_in' | 'slots' | 'hybrid';
  online?: boolean;
  priceMinor?: number;
  currency?: string;
  cancelNoticeMinutes?: number;
  refundPercent?: number;
  intakeQuestions?: IntakeQuestion[];
  subQueues: string[];
  serviceTypes: { name: string; durationMinutes: number; priceMinor?: number }[];
};

async function createQueue(tx: Tx, plan: QueuePlan) {
  const [queue] = await tx
    .insert(queues)
    .values({
      companyId: plan.companyId,
      name: plan.name,
      description: plan.description,
      joinCode: plan.joinCode,
      tokenPrefix: plan.tokenPrefix,
      mode: plan.mode,
      online: plan.online ?? false,
      priceMinor: plan.priceMinor ?? null,
      currency: plan.currency ?? null,
      cancelNoticeMinutes: plan.cancelNoticeMinutes ?? 0,
      refundPercent: plan.refundPercent ?? 100,
      intakeQuestions: plan.intakeQuestions ?? [],
    })
    .returning({ id: queues.id });
  if (!queue) throw new Error(`queue ${plan.name} was not created`);
  const subQueueRows = await tx
    .insert(subQueues)
    .values(plan.subQueues.map((name) => ({ queueId: queue.id, name })))
    .returning({ id: subQueues.id });
  const serviceTypeRows = await tx
    .insert(serviceTypes)
    .values(plan.serviceTypes.map((type) => ({ queueId: queue.id, ...type })))
    .returning({ id: serviceTypes.id });
  await tx.insert(serviceAreas).values({
    queueId: queue.id,
    name: 'Harbourview main building',
    address: '14 Quayside Walk',
    city: 'London',
    latitude: 51.5055,
    longitude: -0.0754,
    phone: '+44 20 7946 0321',
    notes: 'Step-free entrance on Quayside Walk. Reception is on the ground floor.',
  });
  return {
    id: queue.id,
    subQueueIds: subQueueRows.map((row) => row.id),
    serviceTypeIds: serviceTypeRows.map((row) => row.id),
  };
}

async function createSession(
  tx: Tx,
  queueId: string,
  date: string,
  status: 'open' | 'scheduled',
  plan: SessionPlan,
) {
  // PostgreSQL turns the local wall-clock window into instants with its own zone rules.
  const at = (time: string) => sql`(${date}::date + ${time}::time) at time zone ${DEMO_TIMEZONE}`;
  const [session] = await tx
    .insert(sessions)
    .values({
      queueId,
      subQueueId: plan.subQueueId,
      date,
      startTime: plan.start,
      endTime: plan.end,
      timezone: DEMO_TIMEZONE,
      startsAt: at(plan.start),
      endsAt: at(plan.end),
      capacity: plan.capacity,
      status,
      online: plan.online ?? false,
    })
    .returning({ id: sessions.id, startsAt: sessions.startsAt, endsAt: sessions.endsAt });
  if (!session || !plan.service) return;

  const [service] = await tx
    .insert(sessionServices)
    .values({ sessionId: session.id, ...plan.service })
    .returning({ id: sessionServices.id });
  if (!service) throw new Error('session service was not created');
  const slotMs = plan.service.slotMinutes * 60_000;
  const count = Math.floor((session.endsAt.getTime() - session.startsAt.getTime()) / slotMs);
  await tx.insert(slots).values(
    Array.from({ length: count }, (_, index) => ({
      sessionServiceId: service.id,
      slotNo: index + 1,
      startsAt: new Date(session.startsAt.getTime() + index * slotMs),
      endsAt: new Date(session.startsAt.getTime() + (index + 1) * slotMs),
      capacity: plan.service?.capacityPerSlot ?? 0,
    })),
  );
}
