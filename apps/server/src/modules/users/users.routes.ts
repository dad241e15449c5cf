import { dataEnvelope } from '@upnext/contract/errors';
import {
  updateProfileBodySchema,
  userDataQuerySchema,
  userDataSchema,
} from '@upnext/contract/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorDocs, signedIn } from '../../http/route-docs.ts';
import { getUserData, type UserDeps, updateProfile } from './users.service.ts';

export const userRoutes: FastifyPluginAsyncZod<UserDeps> = async (app, deps) => {
  const userDataErrors = errorDocs(...signedIn, 'not_found');
  app.get(
    '/user/user-data',
    {
      schema: {
        tags: ['users'],
        security: [{ bearerAuth: [] }],
        summary:
          "A user's roles record (own, or a member of a company the caller administers); accepts pending invites",
        description: userDataErrors.description,
        querystring: userDataQuerySchema,
        response: { 200: dataEnvelope(userDataSchema), ...userDataErrors.response },
      },
    },
    async (request) => ({
      data: await getUserData(deps, request.caller, request.query.userId),
    }),
  );

  const profileErrors = errorDocs('validation_failed', 'unauthorized');
  app.patch(
    '/user/profile',
    {
      schema: {
        tags: ['users'],
        security: [{ bearerAuth: [] }],
        summary: 'Change the own display name, avatar or time zone',
        description: profileErrors.description,
        body: updateProfileBodySchema,
        response: { 200: dataEnvelope(userDataSchema), ...profileErrors.response },
      },
    },
    async (request) => ({ data: await updateProfile(deps, request.caller, request.body) }),
  );
};
