import { INT4_MAX } from '@upnext/contract/common';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import * as service from './admin.service.ts';
import { authenticateAdmin, deleteUserFactor } from './admin.ts';
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
function sortParam(raw: string | undefined): 'asc' | 'desc' {
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

/** The list's query string: page, per_page, filter and sort, in GoTrue's words when wrong. */
function listQuery(query: unknown): service.ListQuery {
  const page = pageParam(queryParam(query, 'page'), 1, 'page');
  const perPage = pageParam(queryParam(query, 'per_page'), 50, 'per_page');
  if (perPage > MAX_PER_PAGE) throw badPage(`per_page must not exceed ${MAX_PER_PAGE}`);
  const filter = queryParam(query, 'filter') || undefined;
  const sort = queryParam(query, 'sort');
  return { page, perPage, filter, sort, order: sortParam(sort) };
}

type UserParams = { Params: { id: string } };

/**
 * GoTrue's admin API (CONTRACT.md §2), for service-role callers only: users, their factors,
 * invitations and generated links. Everyone else gets 403 not_admin, before the body is read.
 */
export function adminRoutes(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/admin/users', async (request, reply) => {
    await authenticateAdmin(ctx, request);
    const page = await service.listUsers(ctx, listQuery(request.query));
    reply.headers(page.headers);
    return page.body;
  });

  app.post('/admin/users', async (request) => {
    await authenticateAdmin(ctx, request);
    return service.createUser(ctx, parseBody(userBody, request.body), requestInfo(request));
  });

  app.get<UserParams>('/admin/users/:id', async (request) => {
    await authenticateAdmin(ctx, request);
    return service.getUser(ctx, request.params.id);
  });

  app.put<UserParams>('/admin/users/:id', async (request) => {
    await authenticateAdmin(ctx, request);
    const body = parseBody(userBody, request.body);
    return service.updateUser(ctx, request.params.id, body, requestInfo(request));
  });

  app.delete<UserParams>('/admin/users/:id', async (request) => {
    await authenticateAdmin(ctx, request);
    const body = parseBody(deleteBody, request.body);
    const soft = body.should_soft_delete ?? false;
    await service.deleteUser(ctx, request.params.id, soft, requestInfo(request));
    return {};
  });

  app.get<UserParams>('/admin/users/:id/factors', async (request) => {
    await authenticateAdmin(ctx, request);
    return service.userFactors(ctx, request.params.id);
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
    await authenticateAdmin(ctx, request);
    const body = parseBody(inviteBody, request.body);
    return service.invite(ctx, body, request.query, requestInfo(request));
  });

  app.post('/admin/generate_link', async (request) => {
    await authenticateAdmin(ctx, request);
    const body = parseBody(linkBody, request.body);
    return service.generateLink(ctx, body, request.query, requestInfo(request));
  });
}
