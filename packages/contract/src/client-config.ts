import { z } from 'zod';

/** What the browser learns from the server at boot (`GET /api/client-config`); nothing secret. */
export const clientConfigSchema = z
  .object({
    environment: z.enum(['development', 'production', 'test']),
    version: z.string(),
    publicUrl: z.string(),
    sentryDsn: z.string().nullable(),
  })
  .meta({ id: 'ClientConfig' });

export type ClientConfig = z.infer<typeof clientConfigSchema>;
