import { resolve } from 'node:path';
import { z } from 'zod';
import serverPackage from '../package.json' with { type: 'json' };

/**
 * The only place that reads `process.env`. Parsed once at start; a bad value stops the
 * process with a message naming the variable, instead of failing later in an odd place.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const urlFromEnv = z.url({ error: 'must be an absolute URL' });

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be development, production or test',
    })
    .default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  PUBLIC_URL: urlFromEnv.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SENTRY_DSN: urlFromEnv.optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `"${origin}" is not an origin like https://app.example.com`,
          });
        }
      }
      return origins;
    }),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | string => {
      if (value === 'true') return true;
      if (value === 'false' || value === '') return false;
      return value; // comma-separated addresses or CIDRs of the trusted proxies
    }),
  SEED_DEMO_DATA: booleanFromEnv.default(true),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  sentryDsn: string | undefined;
  corsOrigins: readonly string[];
  trustProxy: boolean | string;
  seedDemoData: boolean;
  shutdownTimeoutMs: number;
  webDistDir: string;
  version: string;
}>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set": `PORT= npm start` should not fail on "".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const got = name in present ? ` (got "${present[name]}")` : '';
      return `  ${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/$/, ''),
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    sentryDsn: e.SENTRY_DSN,
    corsOrigins: Object.freeze(e.CORS_ORIGINS),
    trustProxy: e.TRUST_PROXY,
    seedDemoData: e.SEED_DEMO_DATA,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webDistDir: resolve(import.meta.dirname, '../../web/dist'),
    version: serverPackage.version,
  });
}
