import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export function createLogger(name: string, level = 'info'): Logger {
  return pino({ name, level, base: undefined, redact: ['req.headers.authorization', 'req.headers["x-quire-actor"]'] });
}
