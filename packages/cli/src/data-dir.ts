import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { newSecret } from '@quire/kit';

export const defaultDataDir = (env: Record<string, string | undefined> = process.env) =>
  resolve(env.QUIRE_DATA_DIR ?? '.quire');

/** A secret kept in the data directory (mode 0600), generated at first use. */
export function persistentSecret(dataDir: string, name: string, prefix: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = newSecret(prefix);
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

export const adminTokenFile = (dataDir: string) => join(dataDir, 'admin-token');
