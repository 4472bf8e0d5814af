import { LRUCache } from 'lru-cache';
import {
  bundledLanguages,
  createHighlighter,
  type BundledLanguage,
  type BundledTheme,
  type HighlighterGeneric,
} from 'shiki';
import { esc } from '../html.ts';

/**
 * Code highlighting on the server with shiki (a light and a dark theme in one output: the dark colours are
 * CSS variables the site's stylesheet switches to under `prefers-color-scheme: dark`). Languages load on
 * first use; the output of each (language, code) is cached, so a page is never highlighted twice.
 */
const THEMES = { light: 'github-light', dark: 'github-dark' } as const;
let highlighter: Promise<HighlighterGeneric<BundledLanguage, BundledTheme>> | undefined;
const loaded = new Map<string, Promise<void>>();
const cache = new LRUCache<string, string>({
  max: 20_000,
  maxSize: 50_000_000,
  sizeCalculation: (s) => Math.max(1, s.length),
});

const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  js: 'javascript',
  ts: 'typescript',
  yml: 'yaml',
  py: 'python',
  rb: 'ruby',
  md: 'markdown',
};

/** The shiki language of a code block's syntax, or null (shown as plain text). */
export function languageOf(syntax: string | undefined): BundledLanguage | null {
  if (!syntax) return null;
  const name = syntax.trim().toLowerCase();
  const lang = ALIASES[name] ?? name;
  return Object.hasOwn(bundledLanguages, lang) ? (lang as BundledLanguage) : null;
}

async function ready(lang: BundledLanguage | null): Promise<HighlighterGeneric<BundledLanguage, BundledTheme>> {
  highlighter ??= createHighlighter({
    themes: [THEMES.light, THEMES.dark],
    langs: [],
  });
  const h: HighlighterGeneric<BundledLanguage, BundledTheme> = await highlighter;
  if (lang) {
    let wait = loaded.get(lang);
    if (!wait) loaded.set(lang, (wait = h.loadLanguage(lang)));
    await wait;
  }
  return h;
}

/**
 * shiki stops tokenizing a line after `tokenizeTimeLimit` (500 ms by default) and leaves the rest of it one
 * token; the first line a fresh grammar tokenizes compiles its expressions, which takes longer than that on a
 * busy machine (seen: a whole line in one colour). The limit is raised, and calls run one at a time.
 */
const TOKENIZE_TIME_LIMIT_MS = 10_000;
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

const plain = (code: string) => `<pre class="shiki plain" tabindex="0"><code>${esc(code)}</code></pre>`;

/** `<pre class="shiki">…</pre>` of the code (plain, escaped, when the language is unknown). */
export async function highlight(code: string, syntax: string | undefined): Promise<string> {
  const lang = languageOf(syntax);
  const key = `${lang ?? ''}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string;
  if (!lang || code.length > 200_000) out = plain(code);
  else {
    try {
      out = await serially(async () =>
        (await ready(lang)).codeToHtml(code, { lang, themes: THEMES, tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS }),
      );
    } catch {
      out = plain(code);
    }
  }
  cache.set(key, out);
  return out;
}
