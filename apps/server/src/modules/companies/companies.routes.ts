import { okSchema } from '@upnext/contract/common';
import {
  companyParamsSchema,
  companySchema,
  companyUserParamsSchema,
  companyUserSchema,
  createCompanyBodySchema,
  inviteCompanyUserBodySchema,
  updateCompanyBodySchema,
  updateCompanyUserBodySchema,
} from '@upnext/contract/companies';
import { dataEnvelope } from '@upnext/contract/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc, signedIn } from '../../http/route-docs.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import {
  type CompanyDeps,
  createCompany,
  getCompany,
  inviteCompanyUser,
  listCompanyUsers,
  removeCompanyUser,
  updateCompany,
  updateCompanyUser,
} from './companies.service.ts';

const doc = (summary: string, success: Record<number, z.ZodType>, ...codes: ErrorCode[]) =>
  routeDoc('companies', summary, success, codes);

export const companyRoutes: FastifyPluginAsyncZod<CompanyDeps> = async (app, deps) => {
  app.post(
    '/company',
    {
      schema: {
        ...doc(
          'Create a company; the caller becomes its owner',
          { 201: dataEnvelope(companySchema) },
          ...signedIn,
        ),
        body: createCompanyBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await createCompany(deps, request.caller, request.body) };
    },
  );

  app.get(
    '/company/:id',
    {
      schema: {
        ...doc(
          'A company (members)',
          { 200: dataEnvelope(companySchema) },
          ...signedIn,
          'not_found',
        ),
        params: companyParamsSchema,
      },
    },
    async (request) => ({ data: await getCompany(deps, request.caller, request.params.id) }),
  );

  app.patch(
    '/company/:id',
    {
      schema: {
        ...doc(
          'Change company settings (owner, admin)',
          { 200: dataEnvelope(companySchema) },
          ...signedIn,
          'not_found',
        ),
        params: companyParamsSchema,
        body: updateCompanyBodySchema,
      },
    },
    async (request) => ({
      data: await updateCompany(deps, request.caller, request.params.id, request.body),
    }),
  );

  app.get(
    '/company/:id/users',
    {
      schema: {
        ...doc(
          'Members of a company (owner, admin)',
          { 200: dataEnvelope(z.array(companyUserSchema)) },
          ...signedIn,
        ),
        params: companyParamsSchema,
      },
    },
    async (request) => ({ data: await listCompanyUsers(deps, request.caller, request.params.id) }),
  );

  app.post(
    '/company/:id/users',
    {
      schema: {
        ...doc(
          'Invite a member by email as admin or staff (owner, admin); they become active at their first sign-in',
          { 201: dataEnvelope(companyUserSchema) },
          ...signedIn,
          'not_found',
          'already_member',
        ),
        params: companyParamsSchema,
        body: inviteCompanyUserBodySchema,
      },
    },
    async (request, reply) => {
      reply.code(201);
      return {
        data: await inviteCompanyUser(deps, request.caller, request.params.id, request.body),
      };
    },
  );

  app.patch(
    '/company/:id/users/:userId',
    {
      schema: {
        ...doc(
          "Change a member's role, or disable / re-enable them (owner, admin; admins cannot touch owners)",
          { 200: dataEnvelope(companyUserSchema) },
          ...signedIn,
          'owner_protected',
          'not_found',
          'last_owner',
          'invite_pending',
        ),
        params: companyUserParamsSchema,
        body: updateCompanyUserBodySchema,
      },
    },
    async (request) => ({
      data: await updateCompanyUser(
        deps,
        request.caller,
        request.params.id,
        request.params.userId,
        request.body,
      ),
    }),
  );

  app.delete(
    '/company/:id/users/:userId',
    {
      schema: {
        ...doc(
          'Remove a member (owner, admin; never the last active owner)',
          { 200: dataEnvelope(okSchema) },
          ...signedIn,
          'owner_protected',
          'not_found',
          'last_owner',
        ),
        params: companyUserParamsSchema,
      },
    },
    async (request) => {
      await removeCompanyUser(deps, request.caller, request.params.id, request.params.userId);
      return { data: { ok: true as const } };
    },
  );
};
