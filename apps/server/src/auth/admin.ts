import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { AuthConfig } from '../config.ts';
import { isUniqueViolation } from '../db/refusals.ts';
import {
  authIdentities,
  authMfaFactors,
  authOneTimeTokens,
  authSessions,
  authUsers,
} from '../db/schema/auth.ts';
import { audit } from './audit.ts';
import { verifyBearer } from './bearer.ts';
import { mergeMetadata } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { goTrueError } from './guard.ts';
import type { AuthKeys } from './keys.ts';
import { deleteFactor, isUuid } from './mfa.ts';
import { type FactorRow, factorJson, factorsJsonOf, findFactor } from './mfa-factors.ts';
import { clearTokens } from './one-time-tokens.repository.ts';
import { actionLink, type EmailVerifyType, issueToken } from './one-time-tokens.ts';
import { deletePasskeysOf } from './passkey-credentials.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import { findUserByPhone, parsePhone } from './phone.ts';
import { resolveRedirect } from './redirect.ts';
import { endSessions } from './sessions.ts';
import {
  createEmailUser,
  findUserByEmail,
  findUserById,
  type IdentityRow,
  identitiesOf,
  isValidEmail,
  normaliseEmail,
  type UserRow,
  userJson,
} from './users.ts';

/** GoTrue's default admin roles (GOTRUE_JWT_ADMIN_ROLES). */
const ADMIN_ROLES = ['service_role', 'supabase_admin'];

/**
 * The API keys as GoTrue's gateway uses them: long-lived JWTs signed by our key, with only a
 * role (`anon` for browsers, `service_role` for servers; never ship the latter to a browser),
 * our issuer and audience (the bearer check asks every token for both).
 */
export async function apiKey(
  keys: AuthKeys,
  auth: Pick<AuthConfig, 'jwtIssuer' | 'jwtAud'>,
  role: 'anon' | 'service_role',
  now = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return keys.sign({
    iss: auth.jwtIssuer,
    aud: auth.jwtAud,
    role,
    iat,
    exp: iat + 10 * 365 * 24 * 3600,
  });
}

/**
 * The admin check of /admin/* and /invite: a token that passes the shared bearer check
 * (bearer.ts) whose `role` is an admin role.
 */
export async function authenticateAdmin(
  ctx: AuthContext,
  request: FastifyRequest,
): Promise<JWTPayload> {
  let claims: JWTPayload;
  try {
    ({ claims } = await verifyBearer(ctx, request.headers.authorization));
  } catch (error) {
    throw goTrueError(error);
  }
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role))
    throw errors.notAdmin();
  return claims;
}

/** Go's duration syntax as GoTrue's ban_duration takes it ("24h", "1h30m", "90s"). */
function parseBanDuration(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const units: Record<string, number> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
  };
  const pattern = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (const match of value.matchAll(pattern)) {
    total += Number(match[1]) * (units[match[2] as string] as number);
    consumed += match[0].length;
  }
  if (consumed === 0 || consumed !== value.length) {
    throw errors.validation(`invalid format for ban duration: ${value.slice(0, 40)}`);
  }
  return total;
}

export async function loadUser(ctx: AuthContext, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw errors.adminUserNotFound();
  const user = await findUserById(ctx.db, id);
  if (!user) throw errors.adminUserNotFound();
  return user;
}

export async function adminUserJson(ctx: AuthContext, user: UserRow) {
  return userJson(user, await identitiesOf(ctx.db, user.id), await factorsJsonOf(ctx.db, user.id));
}

export type ListOrder = 'asc' | 'desc';

/** One page of users by creation time, with identities and factors, and the total count. */
export async function listUsers(
  ctx: AuthContext,
  page: number,
  perPage: number,
  filter: string | undefined,
  order: ListOrder,
) {
  const by = order === 'asc' ? asc : desc;
  const where = and(
    isNull(authUsers.deletedAt),
    filter ? sql`${authUsers.email} ilike ${`%${filter.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
  );
  const [{ total } = { total: 0 }] = await ctx.db
    .select({ total: count() })
    .from(authUsers)
    .where(where);
  const users = await ctx.db
    .select()
    .from(authUsers)
    .where(where)
    .orderBy(by(authUsers.createdAt), by(authUsers.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const ids = users.map((user) => user.id);
  const identities: IdentityRow[] = ids.length
    ? await ctx.db
        .select()
        .from(authIdentities)
        .where(inArray(authIdentities.userId, ids))
        .orderBy(asc(authIdentities.createdAt))
    : [];
  const factors: FactorRow[] = ids.length
    ? await ctx.db
        .select()
        .from(authMfaFactors)
        .where(inArray(authMfaFactors.userId, ids))
        .orderBy(asc(authMfaFactors.createdAt))
    : [];
  return {
    total: Number(total),
    users: users.map((user) =>
      userJson(
        user,
        identities.filter((identity) => identity.userId === user.id),
        factors.filter((factor) => factor.userId === user.id).map(factorJson),
      ),
    ),
  };
}

export type AdminUserInput = {
  email?: string | null | undefined;
  phone?: string | null | undefined;
  password?: string | null | undefined;
  password_hash?: string | null | undefined;
  id?: string | null | undefined;
  email_confirm?: boolean | null | undefined;
  phone_confirm?: boolean | null | undefined;
  user_metadata?: Record<string, unknown> | null | undefined;
  app_metadata?: Record<string, unknown> | null | undefined;
  role?: string | null | undefined;
  ban_duration?: string | null | undefined;
  aud?: string | null | undefined;
};

async function passwordFields(input: AdminUserInput, minLength: number) {
  if (input.password && input.password_hash) {
    throw errors.validation('Only a password or a password hash should be provided');
  }
  if (input.password) {
    assertPasswordAcceptable(input.password, minLength);
    return { encryptedPassword: await hashPassword(input.password) };
  }
  if (input.password_hash) {
    // Imported hashes: bcrypt (Supabase) or argon2, which passwords.ts verifies.
    if (
      !/^\$2[aby]\$\d{2}\$/.test(input.password_hash) &&
      !/^\$argon2(id|i|d)\$/.test(input.password_hash)
    ) {
      throw errors.validation('Invalid password hash: only bcrypt and argon2 hashes are supported');
    }
    return { encryptedPassword: input.password_hash };
  }
  return {};
}

function banFields(input: AdminUserInput, now: Date) {
  if (!input.ban_duration) return {};
  const duration = parseBanDuration(input.ban_duration);
  return { bannedUntil: duration === 'none' ? null : new Date(now.getTime() + duration) };
}

/** POST /admin/users: no email is sent; confirmations only as asked. */
export async function createUser(ctx: AuthContext, input: AdminUserInput, info: RequestInfo) {
  const email = input.email ? normaliseEmail(input.email) : undefined;
  if (email && !isValidEmail(email)) throw errors.invalidEmail();
  const phone = input.phone ? parsePhone(input.phone) : undefined;
  if (!email && !phone) {
    throw errors.validation('Cannot create a user without either an email or phone');
  }
  if (input.id && !isUuid(input.id)) throw errors.validation('id must be a UUID');
  const password = await passwordFields(input, ctx.auth.passwordMinLength);
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      if (email && (await findUserByEmail(tx, email))) throw errors.emailExists();
      if (phone && (await findUserByPhone(tx, phone))) throw errors.phoneExists();
      const id = input.id ?? randomUUID();
      const providers = [...(email ? ['email'] : []), ...(phone ? ['phone'] : [])];
      const [created] = await tx
        .insert(authUsers)
        .values({
          id,
          aud: input.aud || ctx.auth.jwtAud,
          role: input.role || 'authenticated',
          email: email ?? null,
          phone: phone ?? null,
          ...password,
          emailConfirmedAt: email && input.email_confirm ? now : null,
          phoneConfirmedAt: phone && input.phone_confirm ? now : null,
          appMetadata: {
            ...(input.app_metadata ?? {}),
            provider: providers[0],
            providers,
          },
          userMetadata: input.user_metadata ?? {},
          ...banFields(input, now),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const user = created as UserRow;
      if (email) {
        await tx.insert(authIdentities).values({
          providerId: id,
          userId: id,
          provider: 'email',
          identityData: {
            sub: id,
            email,
            email_verified: Boolean(input.email_confirm),
            phone_verified: false,
          },
          email,
          createdAt: now,
          updatedAt: now,
        });
      }
      if (phone) {
        await tx.insert(authIdentities).values({
          providerId: id,
          userId: id,
          provider: 'phone',
          identityData: {
            sub: id,
            phone,
            email_verified: false,
            phone_verified: Boolean(input.phone_confirm),
          },
          createdAt: now,
          updatedAt: now,
        });
      }
      await audit(tx, info, 'admin_user_created', id, { provider: providers[0] });
      return user;
    });
  let user: UserRow;
  try {
    user = await run();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw errors.userAlreadyExists();
    }
    throw error;
  }
  return adminUserJson(ctx, user);
}

/**
 * PUT /admin/users/{id}. A new password or a ban ends all the user's sessions; a new email
 * address replaces the old one at once (confirmed if `email_confirm`).
 */
export async function updateUser(
  ctx: AuthContext,
  id: string,
  input: AdminUserInput,
  info: RequestInfo,
) {
  const user = await loadUser(ctx, id);
  const email = input.email ? normaliseEmail(input.email) : undefined;
  if (email && !isValidEmail(email)) throw errors.invalidEmail();
  const phone = input.phone ? parsePhone(input.phone) : undefined;
  const password = await passwordFields(input, ctx.auth.passwordMinLength);
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      const changes: Partial<typeof authUsers.$inferInsert> = { updatedAt: now };
      if (email && email !== user.email) {
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== user.id) throw errors.emailExists();
        changes.email = email;
        changes.emailChange = null;
        await tx
          .update(authIdentities)
          .set({
            email,
            identityData: sql`${authIdentities.identityData} || ${JSON.stringify({ email })}::jsonb`,
            updatedAt: now,
          })
          .where(and(eq(authIdentities.userId, user.id), eq(authIdentities.provider, 'email')));
      }
      if ((email ?? user.email) && input.email_confirm) changes.emailConfirmedAt = now;
      if (phone && phone !== user.phone) {
        const taken = await findUserByPhone(tx, phone);
        if (taken && taken.id !== user.id) throw errors.phoneExists();
        changes.phone = phone;
      }
      if ((phone ?? user.phone) && input.phone_confirm) changes.phoneConfirmedAt = now;
      Object.assign(changes, password, banFields(input, now));
      if (input.role) changes.role = input.role;
      if (input.user_metadata)
        changes.userMetadata = mergeMetadata(user.userMetadata, input.user_metadata);
      if (input.app_metadata)
        changes.appMetadata = mergeMetadata(user.appMetadata, input.app_metadata);
      const [updated] = await tx
        .update(authUsers)
        .set(changes)
        .where(eq(authUsers.id, user.id))
        .returning();
      const banned = changes.bannedUntil instanceof Date;
      if (password.encryptedPassword || banned) {
        await endSessions(tx, user.id, 'global', undefined);
        await clearTokens(tx, user.id);
      }
      await audit(tx, info, 'user_modified', user.id, {
        by: 'admin',
        fields: Object.keys(input).filter((key) => key !== 'password' && key !== 'password_hash'),
      });
      return updated as UserRow;
    });
  let updated: UserRow;
  try {
    updated = await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.emailExists();
    throw error;
  }
  return adminUserJson(ctx, updated);
}

/**
 * DELETE /admin/users/{id}: removes the user and (by cascade) sessions, identities, factors
 * and tokens; a soft delete keeps an anonymised row with `deleted_at` instead.
 */
export async function deleteUser(
  ctx: AuthContext,
  id: string,
  soft: boolean,
  info: RequestInfo,
): Promise<void> {
  const user = await loadUser(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock();
    if (soft) {
      await tx.delete(authSessions).where(eq(authSessions.userId, user.id));
      await tx.delete(authIdentities).where(eq(authIdentities.userId, user.id));
      await tx.delete(authMfaFactors).where(eq(authMfaFactors.userId, user.id));
      await deletePasskeysOf(tx, user.id);
      await tx.delete(authOneTimeTokens).where(eq(authOneTimeTokens.userId, user.id));
      await tx
        .update(authUsers)
        .set({
          email: null,
          phone: null,
          emailChange: null,
          phoneChange: null,
          encryptedPassword: null,
          userMetadata: {},
          appMetadata: {},
          deletedAt: now,
          updatedAt: now,
        })
        .where(eq(authUsers.id, user.id));
    } else {
      await tx.delete(authUsers).where(eq(authUsers.id, user.id));
    }
    await audit(tx, info, 'user_deleted', user.id, { soft });
  });
}

export async function deleteUserFactor(
  ctx: AuthContext,
  userId: string,
  factorId: string,
  info: RequestInfo,
): Promise<{ id: string }> {
  const user = await loadUser(ctx, userId);
  if (!isUuid(factorId)) throw errors.factorNotFound();
  return ctx.db.transaction(async (tx) => {
    const factor = await findFactor(tx, user.id, factorId, { lock: true });
    if (!factor) throw errors.factorNotFound();
    await deleteFactor(ctx, tx, factor, info, null);
    return { id: factor.id };
  });
}

export const generateLinkTypes = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;
type GenerateLinkType = (typeof generateLinkTypes)[number];

export type GenerateLinkInput = {
  type: GenerateLinkType;
  email: string;
  password?: string | undefined;
  newEmail?: string | undefined;
  data?: Record<string, unknown> | undefined;
  redirectTo?: string | undefined;
};

/**
 * POST /admin/generate_link: the link and code an email would carry, without sending it.
 * `magiclink` for an unknown address creates the user (sign-up semantics, answered as a
 * `signup` verification); `recovery` and the email-change types need an existing user.
 * An email-change link alone completes the change: the other half is not required.
 */
export async function generateLink(ctx: AuthContext, input: GenerateLinkInput, info: RequestInfo) {
  const email = normaliseEmail(input.email);
  if (!isValidEmail(email)) throw errors.invalidEmail();
  const redirectTo = resolveRedirect(ctx.redirects, input.redirectTo);
  const newEmail = input.newEmail ? normaliseEmail(input.newEmail) : undefined;
  const isEmailChange = input.type === 'email_change_current' || input.type === 'email_change_new';
  if (isEmailChange) {
    if (!newEmail || !isValidEmail(newEmail)) {
      throw errors.validation('The new email address provided is invalid');
    }
    if (input.type === 'email_change_current' && !ctx.auth.mailerSecureEmailChange) {
      throw errors.validation('Enable secure email change to generate link for current email');
    }
  }
  let encryptedPassword: string | null = null;
  if (input.type === 'signup' && input.password) {
    assertPasswordAcceptable(input.password, ctx.auth.passwordMinLength);
    encryptedPassword = await hashPassword(input.password);
  }
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      let user = await findUserByEmail(tx, email);
      const create = async () =>
        createEmailUser(tx, {
          email,
          encryptedPassword,
          userMetadata: input.data ?? {},
          confirmedAt: null,
          now,
          aud: ctx.auth.jwtAud,
        });
      let verificationType: EmailVerifyType;
      let issued: { linkToken: string; code: string };
      switch (input.type) {
        case 'signup':
          if (user?.emailConfirmedAt) throw errors.emailExists();
          if (!input.password && !user) throw errors.validation('Signup requires a valid password');
          user ??= await create();
          issued = await issueToken(ctx, tx, user, 'confirmation_token', email, redirectTo);
          verificationType = 'signup';
          break;
        case 'invite':
          if (user?.emailConfirmedAt) throw errors.emailExists();
          user ??= await create();
          issued = await issueToken(ctx, tx, user, 'invite_token', email, redirectTo);
          verificationType = 'invite';
          break;
        case 'magiclink':
          user ??= await create();
          if (user.emailConfirmedAt) {
            issued = await issueToken(ctx, tx, user, 'magiclink_token', email, redirectTo);
            verificationType = 'magiclink';
          } else {
            issued = await issueToken(ctx, tx, user, 'confirmation_token', email, redirectTo);
            verificationType = 'signup';
          }
          break;
        case 'recovery':
          if (!user) throw errors.adminUserNotFound();
          issued = await issueToken(ctx, tx, user, 'recovery_token', email, redirectTo);
          verificationType = 'recovery';
          break;
        default: {
          if (!user) throw errors.adminUserNotFound();
          const target = newEmail as string;
          const taken = await findUserByEmail(tx, target);
          if (taken && taken.id !== user.id) throw errors.emailExists();
          await tx
            .update(authUsers)
            .set({ emailChange: target, updatedAt: now })
            .where(eq(authUsers.id, user.id));
          const [current, other] =
            input.type === 'email_change_new'
              ? (['email_change_token_new', 'email_change_token_current'] as const)
              : (['email_change_token_current', 'email_change_token_new'] as const);
          await tx
            .delete(authOneTimeTokens)
            .where(
              and(eq(authOneTimeTokens.userId, user.id), eq(authOneTimeTokens.tokenType, other)),
            );
          const address = input.type === 'email_change_new' ? target : email;
          issued = await issueToken(ctx, tx, user, current, address, redirectTo);
          verificationType = 'email_change';
        }
      }
      await audit(tx, info, 'admin_generated_link', user.id, { type: input.type });
      const [fresh] = await tx.select().from(authUsers).where(eq(authUsers.id, user.id));
      return { user: (fresh ?? user) as UserRow, issued, verificationType };
    });
  let outcome: Awaited<ReturnType<typeof run>>;
  try {
    outcome = await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.emailExists();
    throw error;
  }
  const { user, issued, verificationType } = outcome;
  return {
    ...(await adminUserJson(ctx, user)),
    action_link: actionLink(ctx, issued.linkToken, verificationType, redirectTo),
    email_otp: issued.code,
    hashed_token: issued.linkToken,
    verification_type: verificationType,
    redirect_to: redirectTo,
  };
}
