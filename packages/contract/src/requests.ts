import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';

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
    message: z.string().trim().max(1000).optional(),
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

export const joinRequestParamsSchema = z.object({ id: idSchema });
