import { LRUCache } from 'lru-cache';
import {
  bundledLanguages,
  bundledThemes,
  createHighlighter,
  getTokenStyleObject,
  stringifyTokenStyle,
  type BundledLanguage,
  type BundledTheme,
  type HighlighterGeneric,
  type ThemedToken,
  type ThemeRegistrationResolved,
} from 'shiki';
import { esc } from '../html.ts';
import { pairThemes, readableColors, type PairedTheme } from './theme-pair.ts';

/**
 * Code highlighting on the server with shiki, GitHub's light and dark themes in one output: each token's light
 * colour inline and its dark one as `--shiki-dark`, which the site's stylesheet switches to under
 * `prefers-color-scheme: dark` (the markup of shiki's `themes` option). The code is tokenized once for both
 * themes (theme-pair.ts), and the HTML is written here from the tokens. Languages load on first use; the output
 * of each (language, code) is kept in a bounded cache.
 */
interface Highlighter {
  shiki: HighlighterGeneric<BundledLanguage, BundledTheme>;
  paired: PairedTheme;
  /** The paired theme as the highlighter loaded it (given as an object, the same one each time: set once). */
  theme: ThemeRegistrationResolved;
  /** The `<pre>`'s attributes: both themes' colours and backgrounds. */
  pre: string;
}

let highlighter: Promise<Highlighter> | undefined;
const loaded = new Map<string, Promise<void>>();
/** Keyed by the language and the code itself (no digest: the package runs in a browser too); keys count in the size. */
const cache = new LRUCache<string, string>({
  max: 20_000,
  maxSize: 50_000_000,
  sizeCalculation: (s, key) => Math.max(1, s.length + key.length),
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

async function start(): Promise<Highlighter> {
  const [light, dark] = await Promise.all([bundledThemes['github-light'](), bundledThemes['github-dark']()]);
  // GitHub's dark theme draws comments at 3.04:1: every colour is made readable (4.5:1) on its scheme's background.
  const paired = readableColors(pairThemes('github-light-dark', light.default, dark.default));
  const shiki = await createHighlighter({ themes: [paired.theme], langs: [] });
  const fg = paired.colors.get(paired.foreground)!;
  const { background: bg } = paired;
  const style = `background-color:${bg.light};--shiki-dark-bg:${bg.dark};color:${fg.light};--shiki-dark:${fg.dark}`;
  return {
    shiki,
    paired,
    theme: shiki.getTheme(paired.theme),
    pre: `class="shiki shiki-themes github-light github-dark" style="${style}" tabindex="0"`,
  };
}

async function ready(lang: BundledLanguage): Promise<Highlighter> {
  highlighter ??= start();
  const h = await highlighter;
  let wait = loaded.get(lang);
  if (!wait) loaded.set(lang, (wait = h.shiki.loadLanguage(lang)));
  await wait;
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

const plain = (code: string) =>
  `<pre class="shiki plain" tabindex="0"><code>${code
    .split('\n')
    .map((line) => `<span class="line">${esc(line)}</span>`)
    .join('\n')}</code></pre>`;

/** A token's font style as CSS (`font-style:italic;…`), by shiki's style bits. */
const fontStyles = new Map<number, { css: string; decorated: boolean }>();
function fontStyleOf(bits: number) {
  let style = fontStyles.get(bits);
  if (!style) {
    const css = getTokenStyleObject({ fontStyle: bits });
    style = { css: stringifyTokenStyle(css), decorated: 'text-decoration' in css };
    fontStyles.set(bits, style);
  }
  return style;
}

/**
 * A token as HTML: a span with its colours in both themes, or its bare text when it has the surrounding
 * colour and no font style, or shows no colour (white space, undecorated).
 */
function tokenHtml(token: ThemedToken, { paired }: Highlighter): string {
  const text = esc(token.content);
  const font = fontStyleOf(token.fontStyle ?? 0);
  if (!font.decorated && /^\s*$/.test(token.content)) return text;
  const pair = token.color && token.color !== paired.foreground ? paired.colors.get(token.color) : undefined;
  const color = pair ? `color:${pair.light};--shiki-dark:${pair.dark}` : '';
  const style = color && font.css ? `${color};${font.css}` : color || font.css;
  return style ? `<span style="${style}">${text}</span>` : text;
}

function codeHtml(h: Highlighter, lines: ThemedToken[][]): string {
  const body = lines.map((line) => `<span class="line">${line.map((t) => tokenHtml(t, h)).join('')}</span>`);
  return `<pre ${h.pre}><code>${body.join('\n')}</code></pre>`;
}

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
      out = await serially(async () => {
        const h = await ready(lang);
        const lines = h.shiki.codeToTokensBase(code, {
          lang,
          theme: h.theme,
          tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS,
        });
        return codeHtml(h, lines);
      });
    } catch {
      out = plain(code);
    }
  }
  cache.set(key, out);
  return out;
}
