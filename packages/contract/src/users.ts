import { z } from 'zod';
import { idSchema, timezoneSchema } from './common.ts';
import { companyRoles, companyUserStatuses } from './companies.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

/** `GET /user/user-data?userId=<email>`: whom to describe; the caller when left out. */
export const userDataQuerySchema = z.object({
  userId: z.email().max(320).optional().describe("The user's email address"),
});

/** The roles record: who the user is and what they are in each company. */
export const userDataSchema = z
  .object({
    userId: idSchema,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    timezone: z.string().nullable(),
    /** Names `/topic/user/{subscribeId}` and `/topic/meeting/{subscribeId}`. */
    subscribeId: z.string(),
    companies: z.array(
      z.object({
        companyId: idSchema,
        name: z.string(),
        slug: z.string(),
        role: z.enum(companyRoles),
        status: z.enum(companyUserStatuses),
      }),
    ),
  })
  .meta({ id: 'UserData' });
export type UserData = z.infer<typeof userDataSchema>;

export const updateProfileBodySchema = z
  .object({
    displayName: z.string().trim().max(120).optional(),
    avatarUrl: z.url().max(2048).nullable().optional(),
    timezone: timezoneSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
  .meta({ id: 'UpdateProfile' });
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const userEndpoints = {
  getUserData: endpoint({
    method: 'GET',
    path: '/user/user-data',
    tag: 'users',
    summary:
      "A user's roles record (own, or a member of a company the caller administers); accepts pending invites",
    query: userDataQuerySchema,
    responses: { 200: userDataSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  updateProfile: endpoint({
    method: 'PATCH',
    path: '/user/profile',
    tag: 'users',
    summary: 'Change the own display name, avatar or time zone',
    body: updateProfileBodySchema,
    responses: { 200: userDataSchema },
    errors: ['validation_failed', 'unauthorized'],
  }),
};
