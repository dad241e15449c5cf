import { z } from 'zod';
import { currencySchema, idSchema, timestampSchema } from './common.ts';
import { phoneInputSchema } from './phone.ts';

export const queueModes = ['walk_in', 'slots', 'hybrid'] as const;
export const queueVisibilities = ['public', 'unlisted', 'private'] as const;
export const queueStatuses = ['active', 'archived'] as const;

/** What a visitor learns about the company behind a queue. */
export const queueCompanySchema = z.object({
  id: idSchema,
  name: z.string(),
  slug: z.string(),
  timezone: z.string(),
  logoUrl: z.string().nullable(),
});

export const queueSchema = z
  .object({
    id: idSchema,
    companyId: idSchema,
    company: queueCompanySchema,
    name: z.string(),
    description: z.string(),
    /** Typed on /join or carried by the QR code. */
    joinCode: z.string(),
    tokenPrefix: z.string(),
    mode: z.enum(queueModes),
    online: z.boolean(),
    visibility: z.enum(queueVisibilities),
    /** Price of a token in minor units (cents); null when the queue is free. */
    priceMinor: z.number().int().nullable(),
    currency: z.string().nullable(),
    tokensPerVisitor: z.number().int(),
    turnApproachingThreshold: z.number().int(),
    status: z.enum(queueStatuses),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof queueSchema>;

const queueFields = {
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000),
  tokenPrefix: z.string().regex(/^[A-Z0-9]{0,4}$/, 'Up to 4 capital letters or digits, e.g. "A"'),
  mode: z.enum(queueModes),
  online: z.boolean(),
  visibility: z.enum(queueVisibilities),
  priceMinor: z.number().int().min(1).max(100_000_000).nullable(),
  currency: currencySchema.nullable(),
  tokensPerVisitor: z.number().int().min(1).max(20),
  turnApproachingThreshold: z.number().int().min(0).max(50),
};

/** Price and currency go together: both set, or both null (free). */
function pricePaired(body: { priceMinor?: number | null; currency?: string | null }) {
  const price = body.priceMinor ?? null;
  const currency = body.currency ?? null;
  return (price === null) === (currency === null);
}

export const createQueueBodySchema = z
  .object({
    companyId: idSchema,
    name: queueFields.name,
    description: queueFields.description.optional(),
    tokenPrefix: queueFields.tokenPrefix.optional(),
    mode: queueFields.mode.optional(),
    online: queueFields.online.optional(),
    visibility: queueFields.visibility.optional(),
    priceMinor: queueFields.priceMinor.optional(),
    currency: queueFields.currency.optional(),
    tokensPerVisitor: queueFields.tokensPerVisitor.optional(),
    turnApproachingThreshold: queueFields.turnApproachingThreshold.optional(),
  })
  .strict()
  .refine(pricePaired, {
    message: 'Give both a price and a currency, or neither',
    path: ['currency'],
  })
  .meta({ id: 'CreateQueue' });
export type CreateQueueBody = z.infer<typeof createQueueBodySchema>;

/**
 * Any field may change; `status: 'archived'` archives (as DELETE does), `'active'` restores.
 * Price and currency are checked together against the stored values.
 * `regenerateJoinCode: true` issues a new join code (old links stop working).
 */
export const updateQueueBodySchema = z
  .object({
    name: queueFields.name.optional(),
    description: queueFields.description.optional(),
    tokenPrefix: queueFields.tokenPrefix.optional(),
    mode: queueFields.mode.optional(),
    online: queueFields.online.optional(),
    visibility: queueFields.visibility.optional(),
    priceMinor: queueFields.priceMinor.optional(),
    currency: queueFields.currency.optional(),
    tokensPerVisitor: queueFields.tokensPerVisitor.optional(),
    turnApproachingThreshold: queueFields.turnApproachingThreshold.optional(),
    status: z.enum(queueStatuses).optional(),
    regenerateJoinCode: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
  .meta({ id: 'UpdateQueue' });
export type UpdateQueueBody = z.infer<typeof updateQueueBodySchema>;

/**
 * `GET /company/queues?companyId=`: members see every queue of the company (filter by
 * status); anyone else sees only its active public ones.
 */
export const listQueuesQuerySchema = z.object({
  companyId: idSchema,
  status: z.enum(queueStatuses).optional(),
});

/** Every route of a queue and its parts names the queue `:queueId`. */
export const queueParamsSchema = z.object({ queueId: idSchema });
export const joinCodeParamsSchema = z.object({
  code: z
    .string()
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{4,12}$/, 'A join code is 4 to 12 letters or digits')),
});

// A queue's parts (sub-queues, service types, service areas) ------------------------------

/** `/queues/{queueId}/<part>/{id}`: one shape of params for every part of a queue. */
export const queueChildParamsSchema = z.object({ queueId: idSchema, id: idSchema });

/**
 * One shape for each part of a queue: the item (its fields between id/queueId and the
 * timestamps), the create body (strict) and the update body (any create field, at least one).
 */
function queueChild<Item extends z.ZodRawShape, Create extends z.ZodRawShape>(
  name: string,
  item: Item,
  create: Create,
) {
  const createBody = z
    .object(create)
    .strict()
    .meta({ id: `Create${name}` });
  return {
    schema: z
      .object({
        id: idSchema,
        queueId: idSchema,
        ...item,
        createdAt: timestampSchema,
        updatedAt: timestampSchema,
      })
      .meta({ id: name }),
    createBody,
    updateBody: createBody
      .partial()
      .strict()
      .refine((body) => Object.keys(body).length > 0, 'Change at least one field')
      .meta({ id: `Update${name}` }),
  };
}

/** What one part's schemas give: its item, create body and update body types. */
export type QueueChildTypes<
  Part extends { schema: z.ZodType; createBody: z.ZodType; updateBody: z.ZodType },
> = {
  item: z.output<Part['schema']>;
  create: z.output<Part['createBody']>;
  update: z.output<Part['updateBody']>;
};

const name = z.string().trim().min(1).max(120);

/** Counters, desks or practitioners; `staffUserIds` (update: replaces the assignment). */
const subQueueFields = {
  name: z.string(),
  /** Users assigned to serve this sub-queue (company members). */
  staffUserIds: z.array(idSchema),
};
const subQueueInput = { name, staffUserIds: z.array(idSchema).max(100).optional() };
export const subQueueParts = queueChild('SubQueue', subQueueFields, subQueueInput);
export type SubQueue = z.infer<typeof subQueueParts.schema>;

/** What a queue offers; visitors see the active ones. */
const serviceTypeFields = {
  name: z.string(),
  description: z.string(),
  durationMinutes: z.number().int(),
  priceMinor: z.number().int().nullable(),
  active: z.boolean(),
};
const serviceTypeInput = {
  name,
  description: z.string().trim().max(2000).optional(),
  durationMinutes: z.number().int().min(1).max(1440),
  priceMinor: z.number().int().min(0).max(100_000_000).nullable().optional(),
  active: z.boolean().optional(),
};
export const serviceTypeParts = queueChild('ServiceType', serviceTypeFields, serviceTypeInput);
export type ServiceType = z.infer<typeof serviceTypeParts.schema>;

/** A queue's branches. */
const serviceAreaFields = {
  name: z.string(),
  address: z.string(),
  city: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  phone: z.string().nullable(),
  notes: z.string(),
};
const serviceAreaInput = {
  name,
  address: z.string().trim().max(500).optional(),
  city: z.string().trim().max(120).optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  /** Normalised to E.164 in the company's country; `invalid_phone` otherwise (phone.ts). */
  phone: phoneInputSchema.nullable().optional(),
  notes: z.string().trim().max(2000).optional(),
};
export const serviceAreaParts = queueChild('ServiceArea', serviceAreaFields, serviceAreaInput);
export type ServiceArea = z.infer<typeof serviceAreaParts.schema>;
