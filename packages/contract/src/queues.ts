import { z } from 'zod';
import {
  currencySchema,
  idSchema,
  int4Schema,
  okSchema,
  phoneInputSchema,
  textSchema,
  timestampSchema,
} from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';
import { intakeQuestionSchema, intakeQuestionsSchema } from './intake.ts';

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
    /**
     * A visitor who cancels a paid place at least this many minutes before it starts (the
     * slot, or the session for a walk-in) gets `refundPercent` back; later, nothing. Staff and
     * session cancellations refund in full.
     */
    cancelNoticeMinutes: z.number().int(),
    refundPercent: z.number().int(),
    /**
     * A visitor may cancel or reschedule a booking themselves until this many minutes before
     * its slot starts (0: until it starts); later only the company's staff can. Walk-ins and
     * unpaid holds are not bound by it.
     */
    changeCutoffMinutes: z.number().int(),
    /** What a visitor answers when booking, in order (intake.ts). */
    intakeQuestions: z.array(intakeQuestionSchema),
    tokensPerVisitor: z.number().int(),
    turnApproachingThreshold: z.number().int(),
    status: z.enum(queueStatuses),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof queueSchema>;

const queueFields = {
  name: textSchema(120, { min: 1 }),
  description: textSchema(2000, { multiline: true }),
  tokenPrefix: z.string().regex(/^[A-Z0-9]{0,4}$/, 'Up to 4 capital letters or digits, e.g. "A"'),
  mode: z.enum(queueModes),
  online: z.boolean(),
  visibility: z.enum(queueVisibilities),
  priceMinor: int4Schema.min(1).max(100_000_000).nullable(),
  currency: currencySchema.nullable(),
  cancelNoticeMinutes: int4Schema.min(0).max(43_200),
  refundPercent: int4Schema.min(0).max(100),
  changeCutoffMinutes: int4Schema.min(0).max(43_200),
  intakeQuestions: intakeQuestionsSchema,
  tokensPerVisitor: int4Schema.min(1).max(20),
  turnApproachingThreshold: int4Schema.min(0).max(50),
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
    cancelNoticeMinutes: queueFields.cancelNoticeMinutes.optional(),
    refundPercent: queueFields.refundPercent.optional(),
    changeCutoffMinutes: queueFields.changeCutoffMinutes.optional(),
    intakeQuestions: queueFields.intakeQuestions.optional(),
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
    cancelNoticeMinutes: queueFields.cancelNoticeMinutes.optional(),
    refundPercent: queueFields.refundPercent.optional(),
    changeCutoffMinutes: queueFields.changeCutoffMinutes.optional(),
    intakeQuestions: queueFields.intakeQuestions.optional(),
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
  code: textSchema(40)
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{4,12}$/, 'A join code is 4 to 12 letters or digits')),
});

// A queue's parts (sub-queues, service types, service areas) ------------------------------

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

const name = textSchema(120, { min: 1 });

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
  description: textSchema(2000, { multiline: true }).optional(),
  durationMinutes: int4Schema.min(1).max(1440),
  priceMinor: int4Schema.min(0).max(100_000_000).nullable().optional(),
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
  address: textSchema(500, { multiline: true }).optional(),
  city: textSchema(120).optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  /** Normalised to E.164 in the company's country; `invalid_phone` otherwise (phone.ts). */
  phone: phoneInputSchema.nullable().optional(),
  notes: textSchema(2000, { multiline: true }).optional(),
};
export const serviceAreaParts = queueChild('ServiceArea', serviceAreaFields, serviceAreaInput);
export type ServiceArea = z.infer<typeof serviceAreaParts.schema>;

const readErrors = ['validation_failed', 'unauthorized', 'not_found'] as const;
const writeErrors = [...signedInErrors, 'not_found'] as const;
type ChildParts = { schema: z.ZodType; createBody: z.ZodType; updateBody: z.ZodType };

/** The five calls every part of a queue has: list, create, get, change, delete. */
function queueChildEndpoints<
  P extends ChildParts,
  K extends string,
  R extends readonly string[] = readonly [],
>(
  /** The path segment under `/queues/:queueId/`. */
  segment: string,
  /** The name of the part's own id in its item path (`subQueueId`, ...). */
  idName: K,
  noun: string,
  parts: P,
  /** Summaries that say more than the defaults ("Create a <noun> (owner, admin)", ...). */
  docs: { list: string; create?: string; update?: string; remove?: string },
  /** Errors a delete may answer besides the common ones. */
  removeErrors: R = [] as unknown as R,
) {
  const list = `/queues/:queueId/${segment}`;
  const item = `${list}/:${idName}`;
  const itemParams = z.object({ queueId: idSchema, [idName]: idSchema } as {
    queueId: typeof idSchema;
  } & Record<K, typeof idSchema>);
  return {
    idName,
    list: endpoint({
      method: 'GET',
      path: list,
      tag: 'queues',
      summary: docs.list,
      params: queueParamsSchema,
      responses: { 200: z.array(parts.schema) },
      errors: readErrors,
    }),
    create: endpoint({
      method: 'POST',
      path: list,
      tag: 'queues',
      summary: docs.create ?? `Create a ${noun} (owner, admin)`,
      params: queueParamsSchema,
      body: parts.createBody,
      responses: { 201: parts.schema },
      errors: [...writeErrors, 'plan_limit_reached'],
    }),
    get: endpoint({
      method: 'GET',
      path: item,
      tag: 'queues',
      summary: `A ${noun}`,
      params: itemParams,
      responses: { 200: parts.schema },
      errors: readErrors,
    }),
    update: endpoint({
      method: 'PATCH',
      path: item,
      tag: 'queues',
      summary: docs.update ?? `Change a ${noun} (owner, admin)`,
      params: itemParams,
      body: parts.updateBody,
      responses: { 200: parts.schema },
      errors: [...writeErrors, 'plan_limit_reached'],
    }),
    remove: endpoint({
      method: 'DELETE',
      path: item,
      tag: 'queues',
      summary: docs.remove ?? `Delete a ${noun} (owner, admin)`,
      params: itemParams,
      responses: { 200: okSchema },
      errors: [...writeErrors, ...removeErrors] as const,
    }),
  };
}

/** The calls of one part of a queue, as the server mounts them and the web calls them. */
export type QueueChildEndpoints<K extends string = string> = ReturnType<
  typeof queueChildEndpoints<ChildParts, K, readonly string[]>
>;

export const queueChildren = {
  subQueues: queueChildEndpoints('sub-queues', 'subQueueId', 'sub-queue', subQueueParts, {
    list: "A queue's sub-queues (staff assignments for members only)",
    create: 'Create a sub-queue with its assigned staff (owner, admin)',
    update: 'Rename a sub-queue or replace its staff (owner, admin)',
    remove: 'Delete a sub-queue (owner, admin); its sessions stay',
  }),
  serviceTypes: queueChildEndpoints(
    'service-types',
    'serviceTypeId',
    'service type',
    serviceTypeParts,
    {
      list: "A queue's service types (visitors: active ones)",
      remove: 'Delete a service type no session offers (owner, admin)',
    },
    ['in_use'] as const,
  ),
  serviceAreas: queueChildEndpoints(
    'service-areas',
    'serviceAreaId',
    'service area',
    serviceAreaParts,
    {
      list: "A queue's service areas (branches)",
    },
  ),
};

export const queueEndpoints = {
  listQueues: endpoint({
    method: 'GET',
    path: '/company/queues',
    tag: 'queues',
    summary:
      "A company's queues: all of them for its members, the active public ones for anyone else",
    query: listQueuesQuerySchema,
    responses: { 200: z.array(queueSchema) },
    errors: ['validation_failed', 'unauthorized'],
  }),
  createQueue: endpoint({
    method: 'POST',
    path: '/company/queues',
    tag: 'queues',
    summary: 'Create a queue (owner, admin); its join code is generated',
    body: createQueueBodySchema,
    responses: { 201: queueSchema },
    errors: [...writeErrors, 'plan_limit_reached'],
  }),
  getQueue: endpoint({
    method: 'GET',
    path: '/company/queues/:queueId',
    tag: 'queues',
    summary:
      'A queue: members always; visitors when it is active and public, unlisted, or private and approved',
    params: queueParamsSchema,
    responses: { 200: queueSchema },
    errors: readErrors,
  }),
  updateQueue: endpoint({
    method: 'PATCH',
    path: '/company/queues/:queueId',
    tag: 'queues',
    summary: 'Change a queue, archive or restore it, or issue a new join code (owner, admin)',
    params: queueParamsSchema,
    body: updateQueueBodySchema,
    responses: { 200: queueSchema },
    errors: [...writeErrors, 'plan_limit_reached'],
  }),
  archiveQueue: endpoint({
    method: 'DELETE',
    path: '/company/queues/:queueId',
    tag: 'queues',
    summary: 'Archive a queue (owner, admin)',
    params: queueParamsSchema,
    responses: { 200: queueSchema },
    errors: writeErrors,
  }),
  getQueueByCode: endpoint({
    method: 'GET',
    path: '/queues/by-code/:code',
    tag: 'queues',
    summary: 'Find a queue by its join code (the /join entry; anonymous callers welcome)',
    params: joinCodeParamsSchema,
    responses: { 200: queueSchema },
    errors: ['validation_failed', 'unauthorized', 'join_request_required', 'not_found'],
  }),
  listSubQueues: queueChildren.subQueues.list,
  createSubQueue: queueChildren.subQueues.create,
  getSubQueue: queueChildren.subQueues.get,
  updateSubQueue: queueChildren.subQueues.update,
  deleteSubQueue: queueChildren.subQueues.remove,
  listServiceTypes: queueChildren.serviceTypes.list,
  createServiceType: queueChildren.serviceTypes.create,
  getServiceType: queueChildren.serviceTypes.get,
  updateServiceType: queueChildren.serviceTypes.update,
  deleteServiceType: queueChildren.serviceTypes.remove,
  listServiceAreas: queueChildren.serviceAreas.list,
  createServiceArea: queueChildren.serviceAreas.create,
  getServiceArea: queueChildren.serviceAreas.get,
  updateServiceArea: queueChildren.serviceAreas.update,
  deleteServiceArea: queueChildren.serviceAreas.remove,
};
