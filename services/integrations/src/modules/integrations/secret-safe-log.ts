import type { Logger } from '@quire/kit';

/** What a redacted `secrets` map becomes in a log line: its names only. */
const censor = (value: unknown): unknown =>
  value && typeof value === 'object' ? Object.keys(value).map((name) => `${name}=[redacted]`) : '[redacted]';

/**
 * A logger that never writes secret values: any `secrets` field (top level or one or two levels down:
 * `body.secrets`, `input.body.secrets`) is replaced by the names of the secrets (pino `redact`).
 */
export const secretSafe = (log: Logger): Logger =>
  log.child({}, { redact: { paths: ['secrets', '*.secrets', '*.*.secrets'], censor } });
