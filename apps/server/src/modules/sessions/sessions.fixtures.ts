import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { type CompanyRole, companies, companyUsers } from '../../db/schema/companies.ts';
import { queues, serviceTypes, subQueues } from '../../db/schema/queues.ts';

/** Test rows made straight with Drizzle: a company with one queue, two sub-queues and a service type. */
export async function createQueueFixture(
  db: Db,
  options: {
    timezone?: string;
    visibility?: 'public' | 'unlisted' | 'private';
    status?: 'active' | 'archived';
  } = {},
) {
  const suffix = randomUUID().slice(0, 8);
  const [company] = await db
    .insert(companies)
    .values({
      name: `Company ${suffix}`,
      slug: `company-${suffix}`,
      timezone: options.timezone ?? 'Europe/London',
      // Scheduling tests are not about plan limits (modules/billing tests those).
      plan: 'business',
    })
    .returning();
  if (!company) throw new Error('company not created');
  const [queue] = await db
    .insert(queues)
    .values({
      companyId: company.id,
      name: `Queue ${suffix}`,
      joinCode: suffix.toUpperCase().replace(/[^A-Z0-9]/g, '0'),
      visibility: options.visibility ?? 'public',
      status: options.status ?? 'active',
    })
    .returning();
  if (!queue) throw new Error('queue not created');
  const subs = await db
    .insert(subQueues)
    .values([
      { queueId: queue.id, name: 'Desk 1' },
      { queueId: queue.id, name: 'Desk 2' },
    ])
    .returning();
  const [serviceType] = await db
    .insert(serviceTypes)
    .values({ queueId: queue.id, name: 'Consultation', durationMinutes: 15 })
    .returning();
  if (!serviceType || subs.length !== 2) throw new Error('fixture rows not created');
  return {
    company,
    queue,
    subQueueIds: subs.map((s) => s.id) as [string, string],
    serviceTypeId: serviceType.id,
  };
}

export async function addMember(db: Db, companyId: string, userId: string, role: CompanyRole) {
  await db.insert(companyUsers).values({
    companyId,
    userId,
    email: `${userId}@members.test`,
    role,
    status: 'active',
  });
}
