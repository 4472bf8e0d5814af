import { z } from 'zod';

/** Settings every service reads (once, at start). */
export const BaseEnvShape = {
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().describe('Postgres connection string'),
  NATS_URL: z.string().optional().describe('NATS server; the in-process bus when unset'),
  NATS_STREAM: z.string().regex(/^[A-Za-z0-9_-]+$/).default('QUIRE'),
  NATS_SUBJECT_PREFIX: z.string().regex(/^[a-z0-9_-]+$/).default('quire'),
  QUIRE_INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters'),
  QUIRE_PUBLIC_URL: z.string().url().default('http://127.0.0.1:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUIRE_ALLOW_PRIVATE_FETCH: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1')
    .describe('1 lets outbound fetches (OpenAPI sources, imports, webhooks) reach loopback and private addresses'),
  // Where the other services are, for service-to-service calls (internal operations).
  ORG_ADMIN_URL: z.string().url().optional(),
  CONTENT_URL: z.string().url().optional(),
  SITES_URL: z.string().url().optional(),
  INTEGRATIONS_URL: z.string().url().optional(),
};

export class ConfigError extends Error {}

/** Parses the environment with a zod shape; every problem named at once. */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: Record<string, string | undefined> = process.env): z.output<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
