import { z } from 'zod';
import { BaseEnvShape, intSetting, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const SitesEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.sites.port),
  /** Seals the sites' publishing-auth keys (the kit's SecretBox). */
  ...SecretsEnvShape,
  QUIRE_HOSTNAME_RECHECK_EVERY_MS: intSetting(
    { min: 60_000, default: 3_600_000 },
    "How often every site's custom hostname has its DNS TXT record checked again (and at start)",
  ),
  /** The operator's OpenAI-compatible chat endpoint for site answers (`streamAskInSite`); see docs/answers.md. */
  QUIRE_AI_BASE_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('Base URL of an OpenAI-compatible API (`…/v1`); unset: no model'),
  ),
  QUIRE_AI_API_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().optional().describe("The endpoint's API key (unset: none sent, as Ollama or vLLM allow)"),
  ),
  QUIRE_AI_MODEL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().optional().describe('The chat model to ask (required with QUIRE_AI_BASE_URL)'),
  ),
  QUIRE_AI_ALLOW_PRIVATE: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1')
    .describe(
      '1: the endpoint may be on loopback or a private network (an Ollama beside Quire); 0 (default): public only',
    ),
};
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
export const loadSitesConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(SitesEnvShape, env);
