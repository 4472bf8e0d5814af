import { z } from 'zod';
import { SERVICES, type ServiceName } from '@quire/contracts';
import { LOG_FORMATS } from './logger.ts';

/** Where each service is, in distributed mode: the variable naming its URL and its default port. */
export const SERVICE_ENDPOINTS = {
  'org-admin': { variable: 'ORG_ADMIN_URL', port: 3101 },
  content: { variable: 'CONTENT_URL', port: 3102 },
  sites: { variable: 'SITES_URL', port: 3103 },
  integrations: { variable: 'INTEGRATIONS_URL', port: 3104 },
} as const satisfies Record<ServiceName, { variable: string; port: number }>;
type UrlVariable = (typeof SERVICE_ENDPOINTS)[ServiceName]['variable'];

/** The `*_URL` settings of every service; with `withDefaults`, each defaults to its loopback port. */
export function serviceUrlShape<D extends boolean>(
  withDefaults: D,
): Record<UrlVariable, D extends true ? z.ZodDefault<z.ZodString> : z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(
    SERVICES.map((s) => {
      const url = z.string().url().describe(`Base URL of the ${s} service`);
      return [
        SERVICE_ENDPOINTS[s].variable,
        withDefaults ? url.default(`http://127.0.0.1:${SERVICE_ENDPOINTS[s].port}`) : url.optional(),
      ];
    }),
  ) as never;
}

/** The service URLs a config names (services without one are left out). */
export function serviceUrlsOf(
  config: Partial<Record<UrlVariable, string | undefined>>,
): Partial<Record<ServiceName, string>> {
  const out: Partial<Record<ServiceName, string>> = {};
  for (const s of SERVICES) {
    const url = config[SERVICE_ENDPOINTS[s].variable];
    if (url) out[s] = url;
  }
  return out;
}

/**
 * A whole-number setting (`QUIRE_…_MS`, `…_MAX_…`): read from its string, at least `min` (and at most `max`), and
 * `default` when unset.
 */
export const intSetting = (range: { min: number; max?: number; default: number }, description?: string) => {
  const bounded = z.coerce.number().int().min(range.min);
  const setting = (range.max === undefined ? bounded : bounded.max(range.max)).default(range.default);
  return description === undefined ? setting : setting.describe(description);
};

/** `PORT`, defaulting to the service's own port. */
export const portSetting = (defaultPort: number) => intSetting({ min: 0, max: 65535, default: defaultPort });

/** A `0`/`1` setting, read as a boolean (`1`: true). */
const flagSetting = (byDefault: '0' | '1', description: string) =>
  z
    .enum(['0', '1'])
    .default(byDefault)
    .transform((v) => v === '1')
    .describe(description);

/** `/metrics` (Prometheus text) on the process's HTTP port, without the API token: on unless `QUIRE_METRICS=0`. */
export const metricsSetting = flagSetting('1', '1 (default) serves /metrics; 0 turns it off');

/** An optional string setting; set but empty counts as unset (compose files pass `${VAR:-}`). */
const optionalSetting = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** `json` or `pretty` log lines; unset (or empty): pretty when stdout is a terminal, JSON otherwise. */
export const logFormatSetting = z
  .preprocess((v) => (v === '' ? undefined : v), z.enum(LOG_FORMATS).optional())
  .describe('json or pretty; unset: pretty on a terminal, json otherwise');

/** Settings every service reads (once, at start). */
export const BaseEnvShape = {
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().describe('Postgres connection string'),
  NATS_URL: z.string().optional().describe('NATS server; the in-process bus when unset'),
  NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('QUIRE'),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .default('quire'),
  QUIRE_INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters'),
  QUIRE_PUBLIC_URL: z.string().url().default('http://127.0.0.1:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUIRE_LOG_FORMAT: logFormatSetting,
  QUIRE_ALLOW_PRIVATE_FETCH: flagSetting(
    '0',
    '1 lets outbound fetches (OpenAPI sources, imports, webhooks) reach loopback and private addresses',
  ),
  QUIRE_OUTBOUND_FETCH: flagSetting(
    '1',
    '0 refuses every outbound fetch of a user-given URL to a public address (air-gapped instances, tests)',
  ),
  QUIRE_METRICS: metricsSetting,
  // Where the other services are, for service-to-service calls (internal operations).
  ...serviceUrlShape(false),
  // The blob store: PostgreSQL (the service's own schema) unless a bucket is set.
  QUIRE_S3_BUCKET: optionalSetting.describe('S3 bucket for blobs; blobs stay in PostgreSQL when unset'),
  QUIRE_S3_ENDPOINT: optionalSetting
    .pipe(z.string().url().optional())
    .describe('S3-compatible endpoint (MinIO, …); AWS when unset'),
  QUIRE_S3_REGION: z.string().min(1).default('us-east-1'),
  QUIRE_S3_ACCESS_KEY_ID: optionalSetting,
  QUIRE_S3_SECRET_ACCESS_KEY: optionalSetting,
  QUIRE_S3_FORCE_PATH_STYLE: flagSetting(
    '0',
    '1 addresses objects as <endpoint>/<bucket>/<key> (MinIO and most self-hosted stores)',
  ),
  QUIRE_S3_PREFIX: z
    .string()
    .regex(/^(?!\/)/, 'must not start with /')
    .default('quire/')
    .describe('Objects are <prefix><service>/<sha256>'),
};

/** Settings that need others, checked by `loadConfig` whenever its shape has them: [when set, these too]. */
const REQUIRED_WITH: [string, string[]][] = [
  ['QUIRE_S3_BUCKET', ['QUIRE_S3_ACCESS_KEY_ID', 'QUIRE_S3_SECRET_ACCESS_KEY']],
];

export class ConfigError extends Error {}

/** Parses the environment with a zod shape; every problem named at once. */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
): z.output<z.ZodObject<S>> {
  const result = z
    .object(shape)
    .superRefine((values: Record<string, unknown>, ctx) => {
      for (const [when, needed] of REQUIRED_WITH) {
        if (!(when in shape) || values[when] === undefined) continue;
        for (const name of needed)
          if (values[name] === undefined)
            ctx.addIssue({ code: 'custom', path: [name], message: `required when ${when} is set` });
      }
    })
    .safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
