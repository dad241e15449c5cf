import { z } from 'zod';

/** The one error envelope every `/api` route answers with (PRODUCT.md, "The queue API"). */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable snake_case code, safe to branch on'),
      message: z.string().describe('Human-readable reason, safe to show to the user'),
      details: z.unknown().optional().describe('Structured detail, e.g. the fields that failed'),
      requestId: z.string().optional().describe('Present on 5xx: quote it when reporting a fault'),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Every success body is `{ data: ... }`. */
export const dataEnvelope = <T extends z.ZodType>(data: T) => z.object({ data });
