import type {
  Company,
  CompanyUser,
  CreateCompanyBody,
  InviteCompanyUserBody,
  UpdateCompanyBody,
  UpdateCompanyUserBody,
} from '@upnext/contract/companies';
import { defaultLanguage, type Language } from '@upnext/contract/languages';
import { DEFAULT_COUNTRY } from '@upnext/contract/phone';
import { findUserByEmail, normaliseEmail } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { requirePhone } from '../../lib/phone.ts';
import { iso } from '../../lib/rows.ts';
import type { Caller } from '../access/caller.ts';
import { assertWithinPlan } from '../billing/billing.service.ts';
import {
  assertMayManageMember,
  canCreateCompany,
  canManageCompany,
  canReadCompany,
} from './companies.policy.ts';
import {
  type CompanyRow,
  deleteMemberRow,
  findCompany,
  findMember,
  insertCompany,
  insertMember,
  listMembers,
  lockActiveOwners,
  lockMember,
  type MemberRow,
  slugExists,
  updateCompanyRow,
  updateMemberRow,
} from './companies.repository.ts';

/**
 * Invites an address through the auth service: returns the auth user (created with
 * `invited_at` and sent an invite mail when new). Injected so the companies module does not
 * depend on how the auth service delivers it.
 */
export type InviteUser = (input: {
  email: string;
  invitedBy: string;
  companyName: string;
  /** The invitation's language. */
  language: Language;
}) => Promise<{ userId: string }>;

export type CompanyDeps = { db: Db; clock: Clock; inviteUser: InviteUser };

function companyJson(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    timezone: row.timezone,
    country: row.country,
    currency: row.currency,
    logoUrl: row.logoUrl,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    plan: row.plan,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function memberJson(row: MemberRow): CompanyUser {
  return {
    id: row.id,
    companyId: row.companyId,
    userId: row.userId,
    email: row.email,
    displayName: row.displayName,
    avatarUrl: row.avatarUrl,
    role: row.role,
    status: row.status,
    invitedBy: row.invitedBy,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** "Harbourview Health Centre" -> "harbourview-health-centre" (ASCII, at most 48 chars). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return slug || 'company';
}

async function freeSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name);
  if (!(await slugExists(db, base))) return base;
  for (let n = 2; n < 1000; n += 1) {
    const candidate = `${base}-${n}`;
    if (!(await slugExists(db, candidate))) return candidate;
  }
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function createCompany(
  deps: CompanyDeps,
  caller: Caller,
  body: CreateCompanyBody,
): Promise<Company> {
  const user = await canCreateCompany(deps.db, caller);
  const country = body.country ?? DEFAULT_COUNTRY;
  const contactPhone = body.contactPhone
    ? requirePhone(body.contactPhone, country, 'body.contactPhone')
    : null;
  // Two companies with one name at once: the loser of the unique slug retries once.
  for (let attempt = 0; ; attempt += 1) {
    const slug = await freeSlug(deps.db, body.name);
    try {
      return await deps.db.transaction(async (tx) => {
        const now = deps.clock();
        const company = await insertCompany(tx, {
          name: body.name,
          slug,
          timezone: body.timezone,
          country,
          currency: body.currency ?? 'USD',
          logoUrl: body.logoUrl ?? null,
          contactEmail: body.contactEmail ?? null,
          contactPhone,
          createdAt: now,
          updatedAt: now,
        });
        await insertMember(tx, {
          companyId: company.id,
          userId: user.userId,
          email: user.email ?? '',
          role: 'owner',
          status: 'active',
          createdAt: now,
          updatedAt: now,
        });
        return companyJson(company);
      });
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export async function getCompany(deps: CompanyDeps, caller: Caller, id: string): Promise<Company> {
  await canReadCompany(deps.db, caller, id);
  const company = await findCompany(deps.db, id);
  if (!company) throw new AppError('not_found', 'No such company.');
  return companyJson(company);
}

export async function updateCompany(
  deps: CompanyDeps,
  caller: Caller,
  id: string,
  body: UpdateCompanyBody,
): Promise<Company> {
  await canManageCompany(deps.db, caller, id);
  const current = await findCompany(deps.db, id);
  if (!current) throw new AppError('not_found', 'No such company.');
  const country = body.country ?? current.country;
  // A new country rereads the stored phone too: it must still be a number there.
  const phone = body.contactPhone === undefined ? current.contactPhone : body.contactPhone;
  const contactPhone = phone ? requirePhone(phone, country, 'body.contactPhone') : null;
  const row = await updateCompanyRow(deps.db, id, {
    ...body,
    contactPhone,
    updatedAt: deps.clock(),
  });
  if (!row) throw new AppError('not_found', 'No such company.');
  return companyJson(row);
}

export async function listCompanyUsers(
  deps: CompanyDeps,
  caller: Caller,
  companyId: string,
): Promise<CompanyUser[]> {
  await canManageCompany(deps.db, caller, companyId);
  return (await listMembers(deps.db, companyId)).map(memberJson);
}

export async function inviteCompanyUser(
  deps: CompanyDeps,
  caller: Caller,
  companyId: string,
  body: InviteCompanyUserBody,
  language: Language = defaultLanguage,
): Promise<CompanyUser> {
  await canManageCompany(deps.db, caller, companyId);
  const inviter = caller.kind === 'user' ? caller.userId : '';
  const company = await findCompany(deps.db, companyId);
  if (!company) throw new AppError('not_found', 'No such company.');
  const email = normaliseEmail(body.email);
  // Refuse before anything is sent: an existing member gets no second invite mail.
  const existing = await findUserByEmail(deps.db, email);
  if (existing && (await findMember(deps.db, companyId, existing.id))) throw alreadyMember();
  // A seat must be free before a mail goes out; it is counted again under the lock below.
  await assertWithinPlan(deps.db, companyId, 'staff', 1, deps.clock());
  const { userId } = await deps.inviteUser({
    email,
    invitedBy: inviter,
    companyName: company.name,
    language,
  });
  const now = deps.clock();
  try {
    await deps.db.transaction(async (tx) => {
      await assertWithinPlan(tx, companyId, 'staff', 1, now);
      await insertMember(tx, {
        companyId,
        userId,
        email,
        role: body.role,
        status: 'invited',
        invitedBy: inviter,
        createdAt: now,
        updatedAt: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyMember();
    throw error;
  }
  const member = await findMember(deps.db, companyId, userId);
  if (!member) throw new Error('member vanished');
  return memberJson(member);
}

const alreadyMember = () =>
  new AppError('already_member', 'This person is already a member of the company.');

const lastOwner = () =>
  new AppError(
    'last_owner',
    'A company needs at least one active owner. Make someone else an owner first.',
  );

export async function updateCompanyUser(
  deps: CompanyDeps,
  caller: Caller,
  companyId: string,
  userId: string,
  body: UpdateCompanyUserBody,
): Promise<CompanyUser> {
  await deps.db.transaction(async (tx) => {
    const actorRole = await canManageCompany(tx, caller, companyId);
    const owners = await lockActiveOwners(tx, companyId);
    const target = await lockMember(tx, companyId, userId);
    if (!target) throw new AppError('not_found', 'No such member in this company.');
    assertMayManageMember(actorRole, target.role, body.role);
    if (body.status === 'active' && target.status === 'invited') {
      throw new AppError(
        'invite_pending',
        'This person has not accepted the invite yet; they become active when they sign in.',
      );
    }
    const losesOwnership =
      target.role === 'owner' &&
      target.status === 'active' &&
      ((body.role !== undefined && body.role !== 'owner') || body.status === 'disabled');
    if (losesOwnership && owners.length <= 1) throw lastOwner();
    // A disabled member holds no seat: enabling them again takes one.
    if (body.status === 'active' && target.status === 'disabled') {
      await assertWithinPlan(tx, companyId, 'staff', 1, deps.clock());
    }
    await updateMemberRow(tx, companyId, userId, {
      ...(body.role ? { role: body.role } : {}),
      ...(body.status ? { status: body.status } : {}),
      updatedAt: deps.clock(),
    });
  });
  const member = await findMember(deps.db, companyId, userId);
  if (!member) throw new AppError('not_found', 'No such member in this company.');
  return memberJson(member);
}

export async function removeCompanyUser(
  deps: CompanyDeps,
  caller: Caller,
  companyId: string,
  userId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const actorRole = await canManageCompany(tx, caller, companyId);
    const owners = await lockActiveOwners(tx, companyId);
    const target = await lockMember(tx, companyId, userId);
    if (!target) throw new AppError('not_found', 'No such member in this company.');
    assertMayManageMember(actorRole, target.role);
    if (target.role === 'owner' && target.status === 'active' && owners.length <= 1) {
      throw lastOwner();
    }
    await deleteMemberRow(tx, companyId, userId);
  });
}
