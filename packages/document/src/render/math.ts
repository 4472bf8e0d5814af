import katex from 'katex';
import { LRUCache } from 'lru-cache';
import { esc } from '../html.ts';

/**
 * Math rendered on the server with KaTeX into HTML and MathML (the site's stylesheet links KaTeX's CSS and
 * fonts, served by the gateway). `trust` stays off (no `\href`/`\url` links, no HTML from the formula) and
 * `maxSize`/`maxExpand` bound what a formula may cost. A formula KaTeX refuses is shown as its source.
 */
const cache = new LRUCache<string, string>({ max: 10_000 });

export function renderMath(formula: string, display: boolean): string {
  const key = `${display ? 'D' : 'I'}${formula}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string;
  try {
    out = katex.renderToString(formula.slice(0, 10_000), {
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: 'ignore',
      maxSize: 50,
      maxExpand: 500,
      output: 'htmlAndMathml',
    });
  } catch {
    out = `<code class="math-error">${esc(formula)}</code>`;
  }
  cache.set(key, out);
  return out;
}
