import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

export type Logger = PinoLogger;

/** How log lines are written: `json` (one JSON object a line) or `pretty` (one short human line per event). */
export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS = ['json', 'pretty'] as const;

/** The format asked for, else `pretty` when stdout is a terminal and `json` otherwise (pipes, CI, containers). */
export function resolveLogFormat(format: LogFormat | undefined, isTTY = process.stdout.isTTY === true): LogFormat {
  return format ?? (isTTY ? 'pretty' : 'json');
}

/**
 * pino-pretty as a synchronous stream on stdout (no worker thread): `12:03:04 INFO (gateway): message key=value`,
 * one line per event, the time local, the level coloured on a terminal.
 */
export function prettyDestination(
  destination: number | NodeJS.WritableStream = 1,
  colorize?: boolean,
): DestinationStream {
  return prettyStream({
    destination,
    sync: true,
    singleLine: true,
    colorize: colorize ?? process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,name,service',
    messageFormat: '{if service}({service}) {end}{msg}',
  });
}

export function createLogger(name: string, level = 'info', format?: LogFormat): Logger {
  const options = {
    name,
    level,
    base: undefined,
    redact: ['req.headers.authorization', 'req.headers["x-quire-actor"]'],
  };
  return resolveLogFormat(format) === 'pretty' ? pino(options, prettyDestination()) : pino(options);
}
