import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { BaseEnvShape, loadConfig } from './config.ts';
import { prettyDestination, resolveLogFormat } from './logger.ts';

describe('log format', () => {
  it('is pretty on a terminal and JSON otherwise, unless asked for', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('QUIRE_LOG_FORMAT takes json or pretty, empty is unset, anything else is named', () => {
    const shape = { QUIRE_LOG_FORMAT: BaseEnvShape.QUIRE_LOG_FORMAT };
    expect(loadConfig(shape, { QUIRE_LOG_FORMAT: 'pretty' }).QUIRE_LOG_FORMAT).toBe('pretty');
    expect(loadConfig(shape, { QUIRE_LOG_FORMAT: '' }).QUIRE_LOG_FORMAT).toBeUndefined();
    expect(() => loadConfig(shape, { QUIRE_LOG_FORMAT: 'text' })).toThrow(/QUIRE_LOG_FORMAT/);
  });

  it('pretty: one short line per event with the time, level, service, message and fields', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const log = pino({ name: 'quire', base: undefined }, prettyDestination(out, false));
    log.child({ service: 'gateway' }).info({ url: 'http://127.0.0.1:8080', ms: 3 }, 'Quire is running');
    log.warn('no SMTP');
    await new Promise((r) => setImmediate(r));
    const lines = chunks.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: \(gateway\) Quire is running \{"url":"http:\/\/127\.0\.0\.1:8080","ms":3\}$/,
    );
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: no SMTP/);
    expect(chunks.join('')).not.toContain('"level"');
  });
});
