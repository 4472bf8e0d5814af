import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUIRE_BIN, shebangSettings } from './node-settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'quire-shebang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = (firstLine: string) => {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `${firstLine}\nconsole.log(1);\n`);
  return file;
};

describe('shebangSettings', () => {
  it('reads the variables before node and the flags after it', () => {
    expect(shebangSettings(script('#!/usr/bin/env -S A=1 B=x=y node --one --two=2'))).toEqual({
      env: { A: '1', B: 'x=y' },
      flags: ['--one', '--two=2'],
    });
  });

  it('gives nothing for a plain node line, another interpreter or no shebang', () => {
    for (const line of ['#!/usr/bin/env node', '#!/usr/bin/env -S python3 -u', '// a comment'])
      expect(shebangSettings(script(line))).toEqual({ env: {}, flags: [] });
  });

  it("reads quire's own memory settings", () => {
    const quire = shebangSettings(QUIRE_BIN);
    expect(quire.env).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(quire.flags).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=40']);
  });

  it('runs the benches that hold the platform in their own process with the same settings', () => {
    const { env, flags } = shebangSettings(QUIRE_BIN);
    const root = new URL('../../../package.json', import.meta.url);
    const scripts = (JSON.parse(readFileSync(root, 'utf8')) as { scripts: Record<string, string> }).scripts;
    const vars = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    for (const bench of ['content', 'pdf'])
      expect(scripts[`bench:${bench}`]).toBe(['env', ...vars, 'node', ...flags, `bench/${bench}.ts`].join(' '));
  });
});
