import { INT4_MAX } from '@upnext/contract/common';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  adminUserJson,
  authenticateAdmin,
  createUser,
  deleteUser,
  deleteUserFactor,
  generateLink,
  generateLinkTypes,
  type ListOrder,
  listUsers,
  loadUser,
  updateUser,
} from './admin.ts';
import {
  metadata,
  optionalPassword,
  optionalString,
  optionalUrl,
  parseBody,
  queryParam,
} from './body.ts';
import { type AuthContext, requestInfo } from './context.ts';
import { errors } from './errors.ts';
import { inviteUserByEmail } from './invite.ts';
import { factorsJsonOf } from './mfa-factors.ts';

const userBody = z.object({
  email: optionalString,
  phone: optionalString,
  password: optionalPassword,
  password_hash: optionalString,
  id: optionalString,
  email_confirm: z.boolean().nullish(),
  phone_confirm: z.boolean().nullish(),
  user_metadata: metadata,
  app_metadata: metadata,
  role: optionalString,
  ban_duration: optionalString,
  aud: optionalString,
});
const deleteBody = z.object({ should_soft_delete: z.boolean().nullish() });
const inviteBody = z.object({ email: optionalString, data: metadata });
const linkBody = z.object({
  type: optionalString,
  email: optionalString,
  password: optionalPassword,
  new_email: optionalString,
  data: metadata,
  redirect_to: optionalUrl,
});

const MAX_PER_PAGE = 1000;

// GoTrue's words for a bad page, per_page or sort (validation_failed, 400).
const badPage = (why: string) => errors.validation(`Bad Pagination Parameters: ${why}`);
const badSort = (why: string) => errors.validation(`Bad Sort Parameters: ${why}`);

function pageParam(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw badPage(`${name} must be a whole number`);
  const value = Number(raw);
  if (value < 1) throw badPage(`${name} must be greater than 0`);
  // The /api rule for whole numbers (int4) keeps the page's offset within the database's.
  if (value > INT4_MAX) throw badPage(`${name} exceeds maximum allowed value`);
  return value;
}

/**
 * GoTrue's `sort=created_at [asc|desc]` (the only sortable field; the direction defaults to
 * desc, as does the list when no sort is given: newest first).
 */
function sortParam(raw: string | undefined): ListOrder {
  if (raw === undefined) return 'desc';
  const space = raw.indexOf(' ');
  const field = space < 0 ? raw : raw.slice(0, space);
  if (field !== 'created_at') throw badSort(`bad field for sort '${field.slice(0, 60)}'`);
  if (space < 0) return 'desc';
  const direction = raw.slice(space + 1).toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') {
    throw badSort(
      `bad direction for sort '${raw.slice(space + 1, space + 61)}', only 'asc' and 'desc' allowed`,
    );
  }
  return direction;
}

type UserParams = { Params: { id: string } };

/**
 * GoTrue's admin API (CONTRACT.md §2), for service-role callers only: users, their factors,
 * invitations and generated links. Everyone else gets 403 not_admin.
 */
export function adminRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/admin/users', async (request, reply) => {
    await authenticateAdmin(ctx, request);
    const page = pageParam(queryParam(request.query, 'page'), 1, 'page');
    const perPage = pageParam(queryParam(request.query, 'per_page'), 50, 'per_page');
    if (perPage > MAX_PER_PAGE) throw badPage(`per_page must not exceed ${MAX_PER_PAGE}`);
    const filter = queryParam(request.query, 'filter') || undefined;
    const sort = queryParam(request.query, 'sort');
    const { users, total } = await listUsers(ctx, page, perPage, filter, sortParam(sort));
    // As GoTrue: the count, and a next (while there is one) and a last page, the last being
    // at least 1. The other parameters carry over; auth-js reads the page as the first digit
    // after the first "=", so page comes first.
    const last = Math.max(1, Math.ceil(total / perPage));
    const url = (n: number) => {
      const query = new URLSearchParams({ page: String(n), per_page: String(perPage) });
      if (filter) query.set('filter', filter);
      if (sort !== undefined) query.set('sort', sort);
      return `<${ctx.auth.externalUrl}/admin/users?${query}>`;
    };
    const links = [
      ...(page < last ? [`${url(page + 1)}; rel="next"`] : []),
      `${url(last)}; rel="last"`,
    ];
    reply.header('x-total-count', String(total)).header('link', links.join(', '));
    return { users, aud: ctx.auth.jwtAud };
  });

  app.post('/admin/users', async (request) => {
    const info = requestInfo(request);
    await authenticateAdmin(ctx, request);
    return createUser(ctx, parseBody(userBody, request.body), info);
  });

  app.get<UserParams>('/admin/users/:id', async (request) => {
    await authenticateAdmin(ctx, request);
    return adminUserJson(ctx, await loadUser(ctx, request.params.id));
  });

  app.put<UserParams>('/admin/users/:id', async (request) => {
    const info = requestInfo(request);
    await authenticateAdmin(ctx, request);
    return updateUser(ctx, request.params.id, parseBody(userBody, request.body), info);
  });

  app.delete<UserParams>('/admin/users/:id', async (request) => {
    const info = requestInfo(request);
    await authenticateAdmin(ctx, request);
    const body = parseBody(deleteBody, request.body);
    await deleteUser(ctx, request.params.id, body.should_soft_delete ?? false, info);
    return {};
  });

  app.get<UserParams>('/admin/users/:id/factors', async (request) => {
    await authenticateAdmin(ctx, request);
    const user = await loadUser(ctx, request.params.id);
    return factorsJsonOf(ctx.db, user.id);
  });

  app.delete<{ Params: { id: string; factorId: string } }>(
    '/admin/users/:id/factors/:factorId',
    async (request) => {
      const info = requestInfo(request);
      await authenticateAdmin(ctx, request);
      return deleteUserFactor(ctx, request.params.id, request.params.factorId, info);
    },
  );

  app.post('/invite', async (request) => {
    const info = requestInfo(request);
    await authenticateAdmin(ctx, request);
    const body = parseBody(inviteBody, request.body);
    if (!body.email) throw errors.validation('An email address is required');
    return inviteUserByEmail(
      ctx,
      body.email,
      { redirectTo: queryParam(request.query, 'redirect_to'), data: body.data ?? undefined },
      info,
    );
  });

  app.post('/admin/generate_link', async (request) => {
    const info = requestInfo(request);
    await authenticateAdmin(ctx, request);
    const body = parseBody(linkBody, request.body);
    const type = generateLinkTypes.find((candidate) => candidate === body.type);
    if (!type) throw errors.validation('Invalid email action link type requested');
    if (!body.email) throw errors.validation('An email address is required');
    return generateLink(
      ctx,
      {
        type,
        email: body.email,
        password: body.password ?? undefined,
        newEmail: body.new_email ?? undefined,
        data: body.data ?? undefined,
        redirectTo: queryParam(request.query, 'redirect_to') ?? body.redirect_to ?? undefined,
      },
      info,
    );
  });
}
