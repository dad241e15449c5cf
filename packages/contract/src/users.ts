import { z } from 'zod';
import { idSchema, timezoneSchema } from './common.ts';
import { companyRoles, companyUserStatuses } from './companies.ts';

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
