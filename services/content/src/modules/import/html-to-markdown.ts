import { load } from 'cheerio';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

/** How the URLs of a page's links and images are written in its markdown (null: the link is dropped, its text kept). */
export interface UrlRewriter {
  link(href: string): string | null;
  image(src: string): string;
}

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  fence: '```',
  bulletListMarker: '-',
  emDelimiter: '_',
  strongDelimiter: '**',
  linkStyle: 'inlined',
  hr: '---',
  br: '\\',
  // Nothing is ever kept as raw HTML (the document converter would show it as text): what turndown or its
  // plugins would keep is converted as its content.
  keepReplacement: (content, node) => ((node as { isBlock?: boolean }).isBlock ? `\n\n${content}\n\n` : content),
});
turndown.use(gfm);
// Pipes are escaped in text so that they never cut a table cell.
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text: string) => escapeMarkdown(text).replace(/\|/g, '\\|');

/**
 * GitHub-flavoured markdown of an HTML fragment (turndown with its GFM plugin: tables, strikethrough, task
 * lists, fenced code with its language), its link and image URLs rewritten first. A table without a header
 * row gets its first row as header (markdown tables need one).
 */
export function htmlToMarkdown(html: string, rewrite?: UrlRewriter): string {
  const $ = load(html, null, false);
  if (rewrite) {
    $('a[href]').each((_, el) => {
      const a = $(el);
      const href = rewrite.link(a.attr('href')!);
      if (href === null) a.replaceWith(a.contents());
      else a.attr('href', href);
    });
    $('img[src]').each((_, el) => void $(el).attr('src', rewrite.image($(el).attr('src')!)));
  }
  $('table').each((_, el) => {
    const table = $(el);
    const first = table.find('tr').first();
    const cells = first.children('td, th').toArray();
    if (!cells.length || first.parent().is('thead') || cells.every((c) => c.tagName === 'th')) return;
    for (const cell of cells) cell.tagName = 'th';
    table.prepend($('<thead></thead>').append(first));
  });
  // Cells hold one line in markdown: line breaks and blocks inside them become spaces.
  $('td br, th br').replaceWith(' ');
  return turndown
    .turndown($.html())
    .replace(/[ \t]+$/gm, '')
    .replace(/^(\s*(?:[-*+]|\d+\.)\s+\[[ xX]\])[ \t]+/gm, '$1 ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
