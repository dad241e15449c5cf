import { z } from 'zod';
import { idSchema, textSchema, timezoneSchema, urlSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { companyRoles, companyUserStatuses } from './members.ts';

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
    displayName: textSchema(120).optional(),
    avatarUrl: urlSchema.nullable().optional(),
    timezone: timezoneSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
  .meta({ id: 'UpdateProfile' });
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

/** A pending invitation into a company: nothing is granted until its invitee accepts it. */
export const invitationSchema = z
  .object({
    companyId: idSchema,
    companyName: z.string(),
    role: z.enum(companyRoles),
    invitedAt: z.string(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationParamsSchema = z.object({ companyId: idSchema });

export const userEndpoints = {
  getUserData: endpoint({
    method: 'GET',
    path: '/user/user-data',
    tag: 'users',
    summary:
      "A user's roles record (own, or an active member's of a company the caller administers)",
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
  listInvitations: endpoint({
    method: 'GET',
    path: '/user/invitations',
    tag: 'users',
    summary: "The caller's pending invitations into companies",
    responses: { 200: z.array(invitationSchema) },
    errors: ['unauthorized'],
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/user/invitations/:companyId/accept',
    tag: 'users',
    summary: 'Accept a pending invitation: the membership becomes active',
    params: invitationParamsSchema,
    responses: { 200: userDataSchema },
    errors: [...signedInErrors, 'invitation_not_found'],
  }),
  declineInvitation: endpoint({
    method: 'POST',
    path: '/user/invitations/:companyId/decline',
    tag: 'users',
    summary: 'Decline a pending invitation: it is removed',
    params: invitationParamsSchema,
    responses: { 200: z.array(invitationSchema) },
    errors: [...signedInErrors, 'invitation_not_found'],
  }),
};
