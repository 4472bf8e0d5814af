import { z } from 'zod';
import { intSetting, loadConfig, logFormatSetting, metricsSetting, portSetting, serviceUrlShape } from '@quire/kit';

export const GatewayEnvShape = {
  HOST: z.string().default('127.0.0.1'),
  PORT: portSetting(8080),
  ...serviceUrlShape(true),
  NATS_URL: z.string().optional(),
  NATS_STREAM: z.string().default('QUIRE'),
  NATS_SUBJECT_PREFIX: z.string().default('quire'),
  QUIRE_INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters'),
  QUIRE_PUBLIC_URL: z.string().url().default('http://127.0.0.1:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUIRE_LOG_FORMAT: logFormatSetting,
  QUIRE_BODY_LIMIT: intSetting(
    { min: 1024, default: 4 * 1024 * 1024 },
    'Largest request body in bytes (413 above); room for a 1 MiB file in base64',
  ),
  QUIRE_ACTOR_CACHE_MS: intSetting({ min: 0, default: 10_000 }, 'How long a resolved token is cached'),
  QUIRE_METRICS: metricsSetting,
  QUIRE_TRUST_PROXY: z
    .string()
    .optional()
    .describe(
      'Proxies whose X-Forwarded-For is believed (fastify trustProxy: `true`, or comma-separated addresses/CIDRs): the client address the rate limits count by',
    ),
  QUIRE_RATE_LIMIT_PER_MINUTE: intSetting(
    { min: 0, default: 600 },
    'Requests per minute per API token (429 with Retry-After past it); 0 = unlimited',
  ),
  QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: intSetting(
    { min: 0, default: 1_200 },
    'Requests per minute per client address, counted before authentication, on every route but /healthz, /readyz and /metrics; 0 = unlimited',
  ),
  QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: intSetting(
    { min: 0, default: 30 },
    "Failed authentications per minute per client address; past it that address's failing tokens answer 429 (no lookup), its valid tokens and pages are answered as usual; 0 = unlimited",
  ),
};
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export const loadGatewayConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(GatewayEnvShape, env);
