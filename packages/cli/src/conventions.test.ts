// The mold, checked: what CONTRIBUTING.md asks of every service, enforced on the whole tree so that the
// next operation copied from an existing one cannot drift.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'services', 'packages', 'gateway'], { cwd: repoRoot, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const read = (f: string) => readFileSync(join(repoRoot, f), 'utf8');
/** `file:line: text` of every line matching `pattern` in `list`. */
const offending = (list: string[], pattern: RegExp) =>
  list.flatMap((f) =>
    read(f)
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );

const routers = files.filter((f) => /^services\/[^/]+\/src\/modules\/.+\.router\.ts$/.test(f));
const commands = files.filter((f) => /^services\/[^/]+\/src\/commands\//.test(f));
const serviceSources = files.filter((f) => /^services\/[^/]+\/src\//.test(f));

describe('the mold', () => {
  it('finds the routers and commands it checks', () => {
    expect(routers.length).toBeGreaterThan(5);
    expect(commands.length).toBeGreaterThan(5);
  });

  it('keeps writes out of routers: only commands create, remove, persist, flush or record events', () => {
    expect(offending(routers, /recordEvent\(|\bem\.(create|remove|persist|flush|transactional)\(|\.flush\(|sqlRun\(|\.transactional\(/)).toEqual([]);
  });

  it('keeps transactions out of commands: the mold (implement) opens one per mutation', () => {
    expect(offending(commands, /\.transactional\(|\.flush\(/)).toEqual([]);
  });

  it('keeps authorization out of routers: policies (definePolicy) and loaders decide', () => {
    expect(offending(routers, /\b(membershipOf|roleAtLeast|organizationLevel|forbidden)\b/)).toEqual([]);
  });

  it('keeps SQL in repositories (and migrations)', () => {
    const outside = serviceSources.filter((f) => !/\.repository\.ts$|\/migrations\//.test(f));
    expect(offending(outside, /\bsql(Run)?\(|getConnection\(\)\.execute\(|createQueryBuilder\(/)).toEqual([]);
  });

  it('builds every policy module on the kit policy', () => {
    const policies = serviceSources.filter((f) => f.endsWith('.policy.ts'));
    expect(policies.length).toBeGreaterThan(3);
    // access.policy.ts holds the content tree's rule (pure functions) that the content policies are defined with.
    for (const f of policies.filter((p) => !p.endsWith('/access.policy.ts'))) expect(read(f), f).toMatch(/definePolicy\(/);
  });

  it('reads process.env only in configuration and entry points', () => {
    // Handing the environment on to a child process (`...process.env`) is not reading it.
    const candidates = files.filter((f) => !/\/(env|config|main|standalone|cli|data-dir)\.ts$|\/testing\/|\/bin\//.test(f));
    expect(offending(candidates, /(?<!\.\.\.)process\.env/)).toEqual([]);
  });
});
