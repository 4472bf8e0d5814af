import { describe, expect, it } from 'vitest';
import { BaseEnvShape, ConfigError, loadConfig } from './config.ts';

const env = { DATABASE_URL: 'postgres://x@127.0.0.1/db', QUIRE_INTERNAL_SECRET: 's'.repeat(32) };

describe('loadConfig', () => {
  it('keeps private fetches off unless QUIRE_ALLOW_PRIVATE_FETCH=1', () => {
    expect(loadConfig(BaseEnvShape, env).QUIRE_ALLOW_PRIVATE_FETCH).toBe(false);
    expect(loadConfig(BaseEnvShape, { ...env, QUIRE_ALLOW_PRIVATE_FETCH: '1' }).QUIRE_ALLOW_PRIVATE_FETCH).toBe(true);
    expect(() => loadConfig(BaseEnvShape, { ...env, QUIRE_ALLOW_PRIVATE_FETCH: 'yes' })).toThrow(
      /QUIRE_ALLOW_PRIVATE_FETCH/,
    );
  });

  it('names every bad variable at once', () => {
    const err = (() => {
      try {
        loadConfig(BaseEnvShape, { DATABASE_URL: 'nope', QUIRE_INTERNAL_SECRET: 'short', LOG_LEVEL: 'loud' });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/DATABASE_URL[\s\S]*QUIRE_INTERNAL_SECRET[\s\S]*LOG_LEVEL/);
  });
});
