// The documentation stays true in the small: the README stays short, and every relative link of README.md,
// CONTRIBUTING.md and docs/ reaches a file of the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const docsDir = join(repoRoot, 'docs');
const markdownFiles = [
  join(repoRoot, 'README.md'),
  join(repoRoot, 'CONTRIBUTING.md'),
  ...readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(docsDir, f)),
];

/** Relative link targets of a markdown text outside code: `[text](target)` without its #anchor (not `/root` ones). */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !target.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('documentation', () => {
  it('keeps the README at most 300 lines', () => {
    const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('has no relative link to a file that does not exist', () => {
    const broken = markdownFiles.flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8'))
        .filter((target) => !existsSync(join(dirname(file), decodeURI(target))))
        .map((target) => `${relative(repoRoot, file)} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('points nowhere outside the repository (no ../shared)', () => {
    const outside = markdownFiles.flatMap((file) =>
      /\.\.\/shared\b/.test(readFileSync(file, 'utf8')) ? [relative(repoRoot, file)] : [],
    );
    expect(outside).toEqual([]);
  });

  it('finds relative links and leaves URLs, anchors and code alone', () => {
    const text =
      'See [a](a.md#x), [b](../b.md "t"), [c](https://x.io/c.md), [d](#here), [e](mailto:e@x.io), [g](/pages/p1), `[h](h.md)`.\n```\n[f](f.md)\n```\n';
    expect(relativeLinks(text)).toEqual(['a.md', '../b.md']);
  });
});
