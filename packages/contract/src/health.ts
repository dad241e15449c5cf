import { z } from 'zod';

export const healthSchema = z
  .object({
    status: z.literal('ok'),
    database: z.literal('ok'),
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Health' });

export const readinessSchema = z.object({ status: z.literal('ready') }).meta({ id: 'Readiness' });
