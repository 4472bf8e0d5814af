import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir } from './data-dir.ts';

type Env = Record<string, string | undefined>;

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The file where `quire start` records the URL it listens on, beside `quire.pid`. */
export const instanceUrlFile = (dataDir: string) => join(dataDir, 'quire.url');

/** Records the URL of the running instance (removed again when it stops). */
export function recordInstanceUrl(dataDir: string, url: string): { remove(): void } {
  const file = instanceUrlFile(dataDir);
  writeFileSync(file, `${url}\n`, { mode: 0o600 });
  return { remove: () => rmSync(file, { force: true }) };
}

/** The instance the CLI talks to, and where that came from (named in the errors). */
export interface InstanceUrl {
  url: string;
  source: string;
}

/** `QUIRE_URL`; else the URL `quire start` recorded in the data directory; else the default. */
export function instanceUrl(env: Env): InstanceUrl {
  if (env.QUIRE_URL) return { url: env.QUIRE_URL.replace(/\/+$/, ''), source: 'QUIRE_URL' };
  const file = instanceUrlFile(defaultDataDir(env));
  let recorded = '';
  try {
    recorded = readFileSync(file, 'utf8').trim();
  } catch {
    // No instance recorded: the default.
  }
  if (/^https?:\/\/\S+$/.test(recorded)) return { url: recorded.replace(/\/+$/, ''), source: file };
  return { url: DEFAULT_URL, source: 'the default (no QUIRE_URL, no quire.url in the data directory)' };
}

/** Quotes a value for a POSIX shell when it needs it. */
const shellWord = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/**
 * The one plain line `quire start` ends with: the command creating the first organization when there is none,
 * else where to sign in (and, without an SMTP server, where the sign-in links are: the outbox).
 */
export function nextStepLine(opts: { hasOrganizations: boolean; publicUrl: string; env: Env }): string {
  const base = opts.publicUrl.replace(/\/+$/, '');
  if (opts.hasOrganizations)
    return opts.env.QUIRE_SMTP_URL
      ? `Sign in at ${base}/login`
      : `Sign in at ${base}/login (no SMTP server: the links Quire would mail are at ${base}/admin/outbox)`;
  const prefix = opts.env.QUIRE_DATA_DIR ? `QUIRE_DATA_DIR=${shellWord(opts.env.QUIRE_DATA_DIR)} ` : '';
  return `Next, create the first organization and its admin: ${prefix}npx quire bootstrap --org 'Your team' --email you@example.com`;
}
