import { z } from 'zod';
import { idSchema, int4Schema, okSchema, textSchema, timestampSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

export const clientPromotionSchema = z
  .object({
    id: idSchema,
    companyId: idSchema,
    /** Null: the promotion applies to every queue of the company. */
    queueId: idSchema.nullable(),
    title: z.string(),
    description: z.string(),
    code: z.string().nullable(),
    discountPercent: z.number().int(),
    validFrom: timestampSchema.nullable(),
    validTo: timestampSchema.nullable(),
    active: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'ClientPromotion' });
export type ClientPromotion = z.infer<typeof clientPromotionSchema>;

const fields = {
  queueId: idSchema.nullable(),
  title: textSchema(120, { min: 1 }),
  description: textSchema(2000, { multiline: true }),
  code: z
    .string()
    .trim()
    .max(32)
    .regex(/^[A-Za-z0-9_-]{2,32}$/, '2 to 32 letters, digits, "-" or "_"')
    .nullable(),
  discountPercent: int4Schema.min(1).max(100),
  validFrom: timestampSchema.nullable(),
  validTo: timestampSchema.nullable(),
  active: z.boolean(),
};

function validWindow(body: { validFrom?: string | null; validTo?: string | null }) {
  if (!body.validFrom || !body.validTo) return true;
  return Date.parse(body.validFrom) < Date.parse(body.validTo);
}

export const createClientPromotionBodySchema = z
  .object({
    companyId: idSchema,
    queueId: fields.queueId.optional(),
    title: fields.title,
    description: fields.description.optional(),
    code: fields.code.optional(),
    discountPercent: fields.discountPercent,
    validFrom: fields.validFrom.optional(),
    validTo: fields.validTo.optional(),
    active: fields.active.optional(),
  })
  .strict()
  .refine(validWindow, { message: 'validTo must be after validFrom', path: ['validTo'] })
  .meta({ id: 'CreateClientPromotion' });
export type CreateClientPromotionBody = z.infer<typeof createClientPromotionBodySchema>;

export const updateClientPromotionBodySchema = z
  .object({
    queueId: fields.queueId.optional(),
    title: fields.title.optional(),
    description: fields.description.optional(),
    code: fields.code.optional(),
    discountPercent: fields.discountPercent.optional(),
    validFrom: fields.validFrom.optional(),
    validTo: fields.validTo.optional(),
    active: fields.active.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
  .refine(validWindow, { message: 'validTo must be after validFrom', path: ['validTo'] })
  .meta({ id: 'UpdateClientPromotion' });
export type UpdateClientPromotionBody = z.infer<typeof updateClientPromotionBodySchema>;

/**
 * `GET /queues/client-promotions?companyId=&queueId=`: by default the promotions a visitor may
 * use now (active, inside their window, for a queue they can see); `scope=all` lists every
 * promotion of the company and needs an owner or admin.
 */
export const listClientPromotionsQuerySchema = z.object({
  companyId: idSchema,
  queueId: idSchema.optional(),
  scope: z.enum(['current', 'all']).default('current'),
});

export const clientPromotionParamsSchema = z.object({ promotionId: idSchema });

export const promotionEndpoints = {
  listPromotions: endpoint({
    method: 'GET',
    path: '/queues/client-promotions',
    tag: 'promotions',
    summary: "A company's promotions: current ones for anyone; scope=all for owners and admins",
    query: listClientPromotionsQuerySchema,
    responses: { 200: z.array(clientPromotionSchema) },
    errors: signedInErrors,
  }),
  createPromotion: endpoint({
    method: 'POST',
    path: '/queues/client-promotions',
    tag: 'promotions',
    summary: 'Create a promotion (owner, admin)',
    body: createClientPromotionBodySchema,
    responses: { 201: clientPromotionSchema },
    errors: signedInErrors,
  }),
  updatePromotion: endpoint({
    method: 'PATCH',
    path: '/queues/client-promotions/:promotionId',
    tag: 'promotions',
    summary: 'Change a promotion (owner, admin)',
    params: clientPromotionParamsSchema,
    body: updateClientPromotionBodySchema,
    responses: { 200: clientPromotionSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  deletePromotion: endpoint({
    method: 'DELETE',
    path: '/queues/client-promotions/:promotionId',
    tag: 'promotions',
    summary: 'Delete a promotion (owner, admin)',
    params: clientPromotionParamsSchema,
    responses: { 200: okSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
};
