import { z } from 'zod';
import { idSchema, okSchema, textSchema, timestampSchema } from './common.ts';
import { endpoint, signedInErrors } from './endpoint.ts';

export const joinRequestStatuses = ['pending', 'approved', 'rejected'] as const;
export type JoinRequestStatus = (typeof joinRequestStatuses)[number];

/** A request to join a private queue (`/queues/requests`). */
export const joinRequestSchema = z
  .object({
    id: idSchema,
    queueId: idSchema,
    queueName: z.string(),
    userId: idSchema,
    email: z.string().nullable(),
    displayName: z.string(),
    message: z.string(),
    status: z.enum(joinRequestStatuses),
    decidedBy: idSchema.nullable(),
    decidedAt: timestampSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'JoinRequest' });
export type JoinRequest = z.infer<typeof joinRequestSchema>;

/** A signed-in user asks to join; a rejected request may be asked again (back to pending). */
export const createJoinRequestBodySchema = z
  .object({
    queueId: idSchema,
    message: textSchema(1000, { multiline: true }).optional(),
  })
  .strict()
  .meta({ id: 'CreateJoinRequest' });
export type CreateJoinRequestBody = z.infer<typeof createJoinRequestBodySchema>;

/**
 * `GET /queues/requests`: with `queueId`, the queue's requests (owner/admin of its company);
 * without, the caller's own requests.
 */
export const listJoinRequestsQuerySchema = z.object({
  queueId: idSchema.optional(),
  status: z.enum(joinRequestStatuses).optional(),
});

export const decideJoinRequestBodySchema = z
  .object({ status: z.enum(['approved', 'rejected']) })
  .strict()
  .meta({ id: 'DecideJoinRequest' });
export type DecideJoinRequestBody = z.infer<typeof decideJoinRequestBodySchema>;

export const joinRequestParamsSchema = z.object({ requestId: idSchema });

export const requestEndpoints = {
  listJoinRequests: endpoint({
    method: 'GET',
    path: '/queues/requests',
    tag: 'join requests',
    summary: "Join requests: a queue's (owner, admin) with queueId, else the caller's own",
    query: listJoinRequestsQuerySchema,
    responses: { 200: z.array(joinRequestSchema) },
    errors: [...signedInErrors, 'not_found'],
  }),
  createJoinRequest: endpoint({
    method: 'POST',
    path: '/queues/requests',
    tag: 'join requests',
    summary: 'Ask to join a private queue (201 new; 200 when already asked)',
    body: createJoinRequestBodySchema,
    responses: { 201: joinRequestSchema, 200: joinRequestSchema },
    errors: ['validation_failed', 'unauthorized', 'not_found', 'join_request_not_needed'],
  }),
  decideJoinRequest: endpoint({
    method: 'PATCH',
    path: '/queues/requests/:requestId',
    tag: 'join requests',
    summary: 'Approve or reject a join request (owner, admin)',
    params: joinRequestParamsSchema,
    body: decideJoinRequestBodySchema,
    responses: { 200: joinRequestSchema },
    errors: [...signedInErrors, 'not_found'],
  }),
  withdrawJoinRequest: endpoint({
    method: 'DELETE',
    path: '/queues/requests/:requestId',
    tag: 'join requests',
    summary: 'Withdraw the own join request',
    params: joinRequestParamsSchema,
    responses: { 200: okSchema },
    errors: ['validation_failed', 'unauthorized', 'not_found'],
  }),
};
