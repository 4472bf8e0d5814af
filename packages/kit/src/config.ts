import { z } from 'zod';
import { SERVICES, type ServiceName } from '@quire/contracts';

/** Where each service is, in distributed mode: the variable naming its URL and its default port. */
export const SERVICE_ENDPOINTS = {
  'org-admin': { variable: 'ORG_ADMIN_URL', port: 3101 },
  content: { variable: 'CONTENT_URL', port: 3102 },
  sites: { variable: 'SITES_URL', port: 3103 },
  integrations: { variable: 'INTEGRATIONS_URL', port: 3104 },
} as const satisfies Record<ServiceName, { variable: string; port: number }>;
type UrlVariable = (typeof SERVICE_ENDPOINTS)[ServiceName]['variable'];

/** The `*_URL` settings of every service; with `withDefaults`, each defaults to its loopback port. */
export function serviceUrlShape<D extends boolean>(withDefaults: D): Record<UrlVariable, D extends true ? z.ZodDefault<z.ZodString> : z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(
    SERVICES.map((s) => {
      const url = z.string().url().describe(`Base URL of the ${s} service`);
      return [SERVICE_ENDPOINTS[s].variable, withDefaults ? url.default(`http://127.0.0.1:${SERVICE_ENDPOINTS[s].port}`) : url.optional()];
    }),
  ) as never;
}

/** The service URLs a config names (services without one are left out). */
export function serviceUrlsOf(config: Partial<Record<UrlVariable, string | undefined>>): Partial<Record<ServiceName, string>> {
  const out: Partial<Record<ServiceName, string>> = {};
  for (const s of SERVICES) {
    const url = config[SERVICE_ENDPOINTS[s].variable];
    if (url) out[s] = url;
  }
  return out;
}

/** `PORT`, defaulting to the service's own port. */
export const portSetting = (defaultPort: number) => z.coerce.number().int().min(0).max(65535).default(defaultPort);

/** `/metrics` (Prometheus text) on the process's HTTP port, without the API token: on unless `QUIRE_METRICS=0`. */
export const metricsSetting = z
  .enum(['0', '1'])
  .default('1')
  .transform((v) => v === '1')
  .describe('1 (default) serves /metrics; 0 turns it off');

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
  QUIRE_METRICS: metricsSetting,
  // Where the other services are, for service-to-service calls (internal operations).
  ...serviceUrlShape(false),
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
