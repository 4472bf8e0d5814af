// The settings a script's first line gives the process that runs it: `#!/usr/bin/env -S [NAME=value…] node [--flag…]`.
// `quire`'s line carries its memory settings (docs/running.md#memory); the bench and the Dockerfile's test read them
// here, so that what they start runs as `npm start` does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface NodeSettings {
  /** Environment variables set before Node starts (`MALLOC_ARENA_MAX`). */
  env: Record<string, string>;
  /** Node's and V8's flags. */
  flags: string[];
}

/** The settings of the script's `#!/usr/bin/env -S … node …` line; none for any other first line. */
export function shebangSettings(file: string): NodeSettings {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const words = /^#!\/usr\/bin\/env -S (.+)$/.exec(first)?.[1]?.trim().split(/\s+/) ?? [];
  const node = words.indexOf('node');
  if (node < 0) return { env: {}, flags: [] };
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const eq = word.indexOf('=');
    if (eq > 0) env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return { env, flags: words.slice(node + 1) };
}

/** The `quire` command's file (`npm start` runs it through its first line). */
export const QUIRE_BIN = fileURLToPath(new URL('../bin/quire.ts', import.meta.url));
