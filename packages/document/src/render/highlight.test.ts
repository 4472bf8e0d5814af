import { readFileSync } from 'node:fs';
import { bundledThemes, createHighlighter, type BundledLanguage } from 'shiki';
import { describe, expect, it } from 'vitest';
import { highlight } from './highlight.ts';
import { contrastRatio, pairThemes, readableOn } from './theme-pair.ts';

const source = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const SAMPLES: [BundledLanguage, string][] = [
  ['typescript', source('./highlight.ts')],
  ['css', source('../../../../gateway/src/site-assets/site.css')],
  [
    'typescript',
    [
      "import { connect, type Options } from '@acme/cloud';",
      '/** Docs with `code` and @param tags. */',
      'export async function step<T extends object>(options: Options, ...rest: T[]): Promise<number> {',
      "  const client = await connect({ region: `eu-${options.region ?? 'west'}`, retries: 3 });",
      '  for (const job of (await client.jobs.list({ limit: 100 })).items) if (job.cost > 1e3) throw new Error("x");',
      '  return /^a+b?$/giu.test(String(rest.length)) ? 1 : -0x1f;',
      '}',
    ].join('\n'),
  ],
  [
    'python',
    'import os\n\n@dataclass\nclass A(Base):\n    """Doc."""\n    def f(self, x: int = 1) -> str:\n        return f"{x!r}"  # note\n',
  ],
  ['bash', '#!/bin/sh\nexport A="$HOME/x" && for f in *.md; do echo "${f%.md}" | grep -q \'a\' || exit 1; done\n'],
  ['json', '{"a": [1, true, null, "s\\n"], "b": {"c": -1.5e3}}'],
  ['css', '@media (prefers-color-scheme: dark) { .a > b::after { color: #fff !important; content: "x"; } }'],
  ['html', '<!doctype html><a href="x?a=1&amp;b" onclick="f()">t</a><script>let a = 1 < 2;</script>'],
  ['markdown', '# Title\n\n*em* **strong** ~~gone~~ [link](https://x.test) `code`\n\n> quote\n\n- [ ] task\n'],
  ['diff', '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n unchanged\n'],
  ['yaml', 'a: 1\nb: [x, "y"]\n# c\nd: |\n  text\n'],
];

describe('one tokenization for both themes', () => {
  it('gives every character the colours and font style shiki gives it with both themes', async () => {
    const [light, dark] = await Promise.all([bundledThemes['github-light'](), bundledThemes['github-dark']()]);
    const paired = pairThemes('paired', light.default, dark.default);
    const langs = SAMPLES.map(([lang]) => lang);
    // The reference: shiki's two themes (each tokenizing the code); the paired theme in a highlighter of its own.
    const shiki = await createHighlighter({ themes: ['github-light', 'github-dark'], langs });
    const ours = await createHighlighter({ themes: [paired.theme], langs });
    const theme = ours.getTheme(paired.theme);
    // shiki leaves the rest of a line one token past its time limit: a first line can take longer on a busy machine.
    const limit = { tokenizeTimeLimit: 60_000 };
    for (const [lang, code] of SAMPLES) {
      const both = shiki.codeToTokensWithThemes(code, {
        lang,
        themes: { light: 'github-light', dark: 'github-dark' },
        ...limit,
      });
      const expected = both.flatMap((line) =>
        line.flatMap((t) => {
          const { light: l, dark: d } = t.variants;
          return [...t.content].map(() => `${l!.color} ${d!.color} ${l!.fontStyle} ${d!.fontStyle}`);
        }),
      );
      const once = ours.codeToTokensBase(code, { lang, theme, ...limit });
      const actual = once.flatMap((line) =>
        line.flatMap((t) => {
          const pair = paired.colors.get(t.color!);
          return [...t.content].map(() => `${pair?.light} ${pair?.dark} ${t.fontStyle} ${t.fontStyle}`);
        }),
      );
      expect(actual, lang).toEqual(expected);
      expect(new Set(actual).size, lang).toBeGreaterThan(2);
    }
  });

  it('refuses two themes whose rules differ in more than their colours', async () => {
    const [light, dark] = await Promise.all([bundledThemes['github-light'](), bundledThemes['one-dark-pro']()]);
    expect(() => pairThemes('x', light.default, dark.default)).toThrow(/pairThemes/);
  });
});

describe('highlight', () => {
  it('draws every token, comments included, at 4.5:1 or more on both themes (GitHub dark drew comments at 3.04:1)', async () => {
    expect(contrastRatio('#6A737D', '#24292E')).toBeCloseTo(3.04, 1);
    expect(readableOn('#6A737D', '#FFFFFF')).toBe('#6A737D');
    const out = await highlight('// a comment\nconst x = 1; /* another */', 'javascript');
    const pre = /background-color:(#[0-9A-F]{3,6});--shiki-dark-bg:(#[0-9A-F]{6})/i.exec(out)!;
    const spans = [...out.matchAll(/color:(#[0-9A-F]{6});--shiki-dark:(#[0-9A-F]{6})/gi)];
    expect(spans.length).toBeGreaterThan(2);
    for (const [, light, dark] of spans) {
      expect(contrastRatio(light!, pre[1]!), light).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(dark!, pre[2]!), dark).toBeGreaterThanOrEqual(4.5);
    }
    expect(out).not.toContain('--shiki-dark:#6A737D');
  });

  it('escapes the code and colours it for both themes', async () => {
    const out = await highlight('if (a < b && c > "d") x = \'<script>\';', 'ts');
    expect(out).toMatch(/^<pre class="shiki shiki-themes github-light github-dark" style="background-color:#fff;/);
    expect(out).toContain('--shiki-dark-bg:#24292e;color:#24292E;--shiki-dark:#E1E4E8" tabindex="0"><code>');
    expect(out).toContain('<span style="color:#D73A49;--shiki-dark:#F97583">&lt;</span>');
    expect(out).toContain('&amp;&amp;');
    expect(out).toContain('&lt;script&gt;');
    expect(out.replace(/<\/?(pre|code|span)\b[^>]*>/g, '')).not.toMatch(/[<>]/);
  });

  it('shows code of an unknown language as escaped text', async () => {
    expect(await highlight('<b>&', 'nope')).toBe(
      '<pre class="shiki plain" tabindex="0"><code><span class="line">&lt;b&gt;&amp;</span></code></pre>',
    );
  });
});
