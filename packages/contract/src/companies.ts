import { z } from 'zod';
import {
  currencySchema,
  idSchema,
  okSchema,
  phoneInputSchema,
  textSchema,
  timestampSchema,
  timezoneSchema,
  urlSchema,
} from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { companyRoles, companyUserStatuses } from './members.ts';
import { countrySchema } from './phone.ts';

export const companyPlans = ['free', 'pro', 'business'] as const;
export type CompanyPlan = (typeof companyPlans)[number];
/** Roles an invite may give; ownership is handed over by changing a member's role. */
export const invitableRoles = ['admin', 'staff'] as const;

export type CompanyRole = (typeof companyRoles)[number];
export type CompanyUserStatus = (typeof companyUserStatuses)[number];

export const companySchema = z
  .object({
    id: idSchema,
    name: z.string(),
    slug: z.string(),
    timezone: z.string(),
    /** ISO 3166-1 alpha-2: national phone numbers of this company are read in it. */
    country: z.string(),
    currency: z.string(),
    logoUrl: z.string().nullable(),
    contactEmail: z.string().nullable(),
    contactPhone: z.string().nullable(),
    plan: z.enum(companyPlans),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof companySchema>;

/** `/company/{id}/users` is the spec's path; the company's own paths name it `companyId`. */
export const companyUsersParamsSchema = z.object({ id: idSchema });
export const companyParamsSchema = z.object({ companyId: idSchema });

export const createCompanyBodySchema = z
  .object({
    name: textSchema(120, { min: 1 }),
    timezone: timezoneSchema,
    /** Defaults to DEFAULT_COUNTRY (phone.ts). */
    country: countrySchema.optional(),
    currency: currencySchema.optional(),
    logoUrl: urlSchema.nullable().optional(),
    contactEmail: z.email().max(320).nullable().optional(),
    /** Normalised to E.164 in the company's country; `invalid_phone` otherwise. */
    contactPhone: phoneInputSchema.nullable().optional(),
  })
  .strict()
  .meta({ id: 'CreateCompany' });
export type CreateCompanyBody = z.infer<typeof createCompanyBodySchema>;

export const updateCompanyBodySchema = createCompanyBodySchema
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
  .meta({ id: 'UpdateCompany' });
export type UpdateCompanyBody = z.infer<typeof updateCompanyBodySchema>;

/** A member of a company (`/company/{id}/users`). */
export const companyUserSchema = z
  .object({
    id: idSchema,
    companyId: idSchema,
    userId: idSchema,
    email: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    role: z.enum(companyRoles),
    status: z.enum(companyUserStatuses),
    invitedBy: idSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'CompanyUser' });
export type CompanyUser = z.infer<typeof companyUserSchema>;

export const companyUserParamsSchema = z.object({ companyId: idSchema, userId: idSchema });

export const inviteCompanyUserBodySchema = z
  .object({
    email: z.email().max(320),
    role: z.enum(invitableRoles),
  })
  .strict()
  .meta({ id: 'InviteCompanyUser' });
export type InviteCompanyUserBody = z.infer<typeof inviteCompanyUserBodySchema>;

/** Change a member's role, or disable/re-enable them (`invited` is never set by hand). */
export const updateCompanyUserBodySchema = z
  .object({
    role: z.enum(companyRoles).optional(),
    status: z.enum(['active', 'disabled']).optional(),
  })
  .strict()
  .refine((body) => body.role !== undefined || body.status !== undefined, 'Give a role or a status')
  .meta({ id: 'UpdateCompanyUser' });
export type UpdateCompanyUserBody = z.infer<typeof updateCompanyUserBodySchema>;

export const companyEndpoints = {
  createCompany: endpoint({
    method: 'POST',
    path: '/company',
    tag: 'companies',
    summary: 'Create a company; the caller becomes its owner',
    body: createCompanyBodySchema,
    responses: { 201: companySchema },
    errors: signedInErrors,
  }),
  getCompany: endpoint({
    method: 'GET',
    path: '/company/:companyId',
    tag: 'companies',
    summary: 'A company (members)',
    params: companyParamsSchema,
    responses: { 200: companySchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  updateCompany: endpoint({
    method: 'PATCH',
    path: '/company/:companyId',
    tag: 'companies',
    summary: 'Change company settings (owner, admin)',
    params: companyParamsSchema,
    body: updateCompanyBodySchema,
    responses: { 200: companySchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  listCompanyUsers: endpoint({
    method: 'GET',
    path: '/company/:id/users',
    tag: 'companies',
    summary: 'Members of a company (owner, admin)',
    params: companyUsersParamsSchema,
    responses: { 200: z.array(companyUserSchema) },
    errors: signedInErrors,
  }),
  inviteCompanyUser: endpoint({
    method: 'POST',
    path: '/company/:id/users',
    tag: 'companies',
    summary:
      'Invite a member by email as admin or staff (owner, admin); they become active at their first sign-in',
    params: companyUsersParamsSchema,
    body: inviteCompanyUserBodySchema,
    responses: { 201: companyUserSchema },
    errors: [...signedInErrors, 'not_found', 'already_member', 'plan_limit_reached'],
  }),
  updateCompanyUser: endpoint({
    method: 'PATCH',
    path: '/company/:companyId/users/:userId',
    tag: 'companies',
    summary:
      "Change a member's role, or disable / re-enable them (owner, admin; admins cannot touch owners)",
    params: companyUserParamsSchema,
    body: updateCompanyUserBodySchema,
    responses: { 200: companyUserSchema },
    errors: [
      ...signedInErrors,
      'owner_protected',
      'not_found',
      'last_owner',
      'invite_pending',
      'plan_limit_reached',
    ],
  }),
  removeCompanyUser: endpoint({
    method: 'DELETE',
    path: '/company/:companyId/users/:userId',
    tag: 'companies',
    summary: 'Remove a member (owner, admin; never the last active owner)',
    params: companyUserParamsSchema,
    responses: { 200: okSchema },
    errors: [...signedInErrors, 'owner_protected', 'not_found', 'last_owner'],
  }),
};
