import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import { isUuid, mergeMetadata, queryParam } from './body.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { inviteUserByEmail } from './invite.ts';
import { factorJson, factorsJsonOf } from './mfa-factors.ts';
import { clearTokens } from './one-time-tokens.repository.ts';
import { actionLink, type EmailVerifyType, issueToken } from './one-time-tokens.ts';
import { deletePasskeysOf } from './passkeys.repository.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import { findUserByPhone, parsePhone } from './phone.ts';
import { resolveRedirect } from './redirect.ts';
import { endSessions } from './sessions.service.ts';
import {
  anonymiseUser,
  deleteTokensOfType,
  deleteUser as deleteUserRow,
  findUserById,
  identitiesOf,
  listUsers as listUserRows,
  setIdentityEmail,
  signInMethodsOf,
  type UserRow,
  updateUser as updateUserRow,
} from './users.repository.ts';
import { createUser as createUserRow } from './users.service.ts';
import { findUserByEmail, isValidEmail, normaliseEmail, userJson } from './users.ts';

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

async function adminUserJson(ctx: AuthContext, user: UserRow) {
  return userJson(user, await identitiesOf(ctx.db, user.id), await factorsJsonOf(ctx.db, user.id));
}

/** GET /admin/users/{id}. */
export async function getUser(ctx: AuthContext, id: string) {
  return adminUserJson(ctx, await loadUser(ctx, id));
}

/** GET /admin/users/{id}/factors. */
export async function userFactors(ctx: AuthContext, id: string) {
  return factorsJsonOf(ctx.db, (await loadUser(ctx, id)).id);
}

export type ListQuery = {
  page: number;
  perPage: number;
  filter: string | undefined;
  /** As given, carried over into the page links. */
  sort: string | undefined;
  order: 'asc' | 'desc';
};

/**
 * GET /admin/users: one page of users by creation time, with identities and factors. As
 * GoTrue, the count and the links to a next page (while there is one) and the last (at
 * least 1) go in headers; the other parameters carry over, and page comes first (auth-js
 * reads the page as the first digit after the first "=").
 */
export async function listUsers(ctx: AuthContext, query: ListQuery) {
  const { total, users } = await listUserRows(ctx.db, query);
  const { identities, factors } = await signInMethodsOf(
    ctx.db,
    users.map((user) => user.id),
  );
  const last = Math.max(1, Math.ceil(total / query.perPage));
  const url = (n: number) => {
    const params = new URLSearchParams({ page: String(n), per_page: String(query.perPage) });
    if (query.filter) params.set('filter', query.filter);
    if (query.sort !== undefined) params.set('sort', query.sort);
    return `<${ctx.auth.externalUrl}/admin/users?${params}>`;
  };
  const links = [
    ...(query.page < last ? [`${url(query.page + 1)}; rel="next"`] : []),
    `${url(last)}; rel="last"`,
  ];
  return {
    headers: { 'x-total-count': String(total), link: links.join(', ') },
    body: {
      users: users.map((user) =>
        userJson(
          user,
          identities.filter((identity) => identity.userId === user.id),
          factors.filter((factor) => factor.userId === user.id).map(factorJson),
        ),
      ),
      aud: ctx.auth.jwtAud,
    },
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
      const user = await createUserRow(tx, {
        email: email ? { address: email, confirmed: Boolean(input.email_confirm) } : undefined,
        phone: phone ? { address: phone, confirmed: Boolean(input.phone_confirm) } : undefined,
        ...password,
        userMetadata: input.user_metadata ?? {},
        appMetadata: input.app_metadata ?? {},
        aud: input.aud || ctx.auth.jwtAud,
        now,
        id: input.id ?? undefined,
        role: input.role || undefined,
        ...banFields(input, now),
      });
      await audit(tx, info, 'admin_user_created', user.id, { provider: email ? 'email' : 'phone' });
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
      const changes: Parameters<typeof updateUserRow>[2] = { updatedAt: now };
      if (email && email !== user.email) {
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== user.id) throw errors.emailExists();
        changes.email = email;
        changes.emailChange = null;
        await setIdentityEmail(tx, user.id, email, now);
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
      const updated = await updateUserRow(tx, user.id, changes);
      const banned = changes.bannedUntil instanceof Date;
      if (password.encryptedPassword || banned) {
        await endSessions(tx, user.id, 'global', undefined);
        await clearTokens(tx, user.id);
      }
      await audit(tx, info, 'user_modified', user.id, {
        by: 'admin',
        fields: Object.keys(input).filter((key) => key !== 'password' && key !== 'password_hash'),
      });
      return updated;
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
    if (soft) {
      await deletePasskeysOf(tx, user.id);
      await anonymiseUser(tx, user.id, ctx.clock());
    } else {
      await deleteUserRow(tx, user.id);
    }
    await audit(tx, info, 'user_deleted', user.id, { soft });
  });
}

/** POST /invite: GoTrue's invitation by the admin API. */
export async function invite(
  ctx: AuthContext,
  body: { email?: string | null | undefined; data?: Record<string, unknown> | null | undefined },
  query: unknown,
  info: RequestInfo,
) {
  if (!body.email) throw errors.validation('An email address is required');
  const redirectTo = queryParam(query, 'redirect_to');
  return inviteUserByEmail(ctx, body.email, { redirectTo, data: body.data ?? undefined }, info);
}

const generateLinkTypes = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;

export type GenerateLinkBody = {
  type?: string | null | undefined;
  email?: string | null | undefined;
  password?: string | null | undefined;
  new_email?: string | null | undefined;
  data?: Record<string, unknown> | null | undefined;
  redirect_to?: string | null | undefined;
};

/**
 * POST /admin/generate_link: the link and code an email would carry, without sending it.
 * `magiclink` for an unknown address creates the user (sign-up semantics, answered as a
 * `signup` verification); `recovery` and the email-change types need an existing user.
 * An email-change link alone completes the change: the other half is not required.
 * `redirect_to` of the query string wins over the body's.
 */
export async function generateLink(
  ctx: AuthContext,
  body: GenerateLinkBody,
  query: unknown,
  info: RequestInfo,
) {
  const type = generateLinkTypes.find((candidate) => candidate === body.type);
  if (!type) throw errors.validation('Invalid email action link type requested');
  if (!body.email) throw errors.validation('An email address is required');
  const redirectParam = queryParam(query, 'redirect_to');
  const email = normaliseEmail(body.email);
  if (!isValidEmail(email)) throw errors.invalidEmail();
  const redirectTo = resolveRedirect(ctx.redirects, redirectParam ?? body.redirect_to ?? undefined);
  const newEmail = body.new_email ? normaliseEmail(body.new_email) : undefined;
  const isEmailChange = type === 'email_change_current' || type === 'email_change_new';
  if (isEmailChange) {
    if (!newEmail || !isValidEmail(newEmail)) {
      throw errors.validation('The new email address provided is invalid');
    }
    if (type === 'email_change_current' && !ctx.auth.mailerSecureEmailChange) {
      throw errors.validation('Enable secure email change to generate link for current email');
    }
  }
  let encryptedPassword: string | null = null;
  if (type === 'signup' && body.password) {
    assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
    encryptedPassword = await hashPassword(body.password);
  }
  const run = () =>
    ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      let user = await findUserByEmail(tx, email);
      const create = async () =>
        createUserRow(tx, {
          email: { address: email, confirmed: false },
          encryptedPassword,
          userMetadata: body.data ?? {},
          now,
          aud: ctx.auth.jwtAud,
        });
      let verificationType: EmailVerifyType;
      let issued: { linkToken: string; code: string };
      switch (type) {
        case 'signup':
          if (user?.emailConfirmedAt) throw errors.emailExists();
          if (!body.password && !user) throw errors.validation('Signup requires a valid password');
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
          await updateUserRow(tx, user.id, { emailChange: target, updatedAt: now });
          const [current, other] =
            type === 'email_change_new'
              ? (['email_change_token_new', 'email_change_token_current'] as const)
              : (['email_change_token_current', 'email_change_token_new'] as const);
          await deleteTokensOfType(tx, user.id, other);
          const address = type === 'email_change_new' ? target : email;
          issued = await issueToken(ctx, tx, user, current, address, redirectTo);
          verificationType = 'email_change';
        }
      }
      await audit(tx, info, 'admin_generated_link', user.id, { type });
      const fresh = await findUserById(tx, user.id);
      return { user: fresh ?? user, issued, verificationType };
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
