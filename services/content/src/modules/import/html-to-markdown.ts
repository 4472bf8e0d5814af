import { load, type Cheerio, type CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { esc } from '@quire/document/model';

/** How the URLs of a page's links and images are written in its markdown (null: the link is dropped, its text kept). */
export interface UrlRewriter {
  link(href: string): string | null;
  image(src: string): string;
}

type HintStyle = 'info' | 'warning' | 'danger' | 'success';

/**
 * The blocks the import recognises, marked on the HTML before turndown runs (one `div` each, so turndown lays
 * them out as blocks): `data-quire-hint="<style>"`, `data-quire-expandable` with its `data-quire-summary`,
 * `data-quire-tabs` holding `data-quire-tab="<title>"` panels, `data-quire-math="block|inline"` holding the TeX.
 */
const HINT = 'data-quire-hint';
const EXPANDABLE = 'data-quire-expandable';
const SUMMARY = 'data-quire-summary';
const TABS = 'data-quire-tabs';
const TAB = 'data-quire-tab';
const MATH = 'data-quire-math';
const CODE_TITLE = 'data-quire-code-title';

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
  // No HTML is kept as it is: what turndown or its plugins would keep is converted as its content (only the
  // tags GitBook's markdown has, written by the rules below, are HTML in the result).
  keepReplacement: (content, node) => ((node as { isBlock?: boolean }).isBlock ? `\n\n${content}\n\n` : content),
});
turndown.use(gfm);
/**
 * Text is escaped where markdown would read it as syntax: turndown's escapes, pipes (they would cut a table
 * cell), and what GitBook's markdown adds: `{%` (a block tag), `$` (math) and `<` before a tag name (HTML).
 */
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text: string) =>
  escapeMarkdown(text)
    .replace(/\|/g, '\\|')
    .replace(/\{%/g, '\\{%')
    .replace(/\$/g, '\\$')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<');

const attr = (node: HTMLElement, name: string) => node.getAttribute(name) ?? '';
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const block = (text: string) => `\n\n${text}\n\n`;
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

turndown.addRule('hint', {
  filter: (node) => node.hasAttribute(HINT),
  replacement: (content, node) => block(`{% hint style="${attr(node, HINT)}" %}\n${content.trim()}\n{% endhint %}`),
});
turndown.addRule('expandable', {
  filter: (node) => node.hasAttribute(EXPANDABLE),
  replacement: (content) => block(`<details>\n\n${content.trim()}\n\n</details>`),
});
turndown.addRule('summary', {
  filter: (node) => node.hasAttribute(SUMMARY),
  replacement: (content) => block(`<summary>${oneLine(content)}</summary>`),
});
turndown.addRule('tabs', {
  filter: (node) => node.hasAttribute(TABS),
  replacement: (content) => block(`{% tabs %}\n${content.trim()}\n{% endtabs %}`),
});
turndown.addRule('tab', {
  filter: (node) => node.hasAttribute(TAB),
  replacement: (content, node) =>
    block(`{% tab title=${quoted(oneLine(attr(node, TAB)))} %}\n${content.trim()}\n{% endtab %}`),
});
turndown.addRule('math', {
  filter: (node) => node.hasAttribute(MATH),
  replacement: (_, node) => {
    const tex = (node.textContent ?? '').trim();
    if (!tex) return '';
    return attr(node, MATH) === 'block' ? block(`$$\n${tex}\n$$`) : `$$${tex}$$`;
  },
});
turndown.addRule('code-title', {
  filter: (node) => node.hasAttribute(CODE_TITLE),
  replacement: (content, node) =>
    block(`{% code title=${quoted(oneLine(attr(node, CODE_TITLE)))} %}\n${content.trim()}\n{% endcode %}`),
});
// Keyboard keys, subscripts and superscripts keep GitBook's tags; a highlight is GitBook's background colour.
turndown.addRule('inline-tags', {
  filter: ['kbd', 'sub', 'sup'],
  replacement: (content, node) =>
    content.trim() ? `<${node.nodeName.toLowerCase()}>${content}</${node.nodeName.toLowerCase()}>` : content,
});
turndown.addRule('highlight', {
  filter: 'mark',
  replacement: (content) => (content.trim() ? `<mark style="background-color:yellow;">${content}</mark>` : content),
});

/** The words of class names, roles and labels that say which kind of note an element is. */
const HINT_WORDS: Record<string, HintStyle> = {
  note: 'info',
  info: 'info',
  important: 'info',
  abstract: 'info',
  summary: 'info',
  tldr: 'info',
  todo: 'info',
  seealso: 'info',
  question: 'info',
  help: 'info',
  faq: 'info',
  example: 'info',
  quote: 'info',
  cite: 'info',
  hint: 'info',
  secondary: 'info',
  primary: 'info',
  tip: 'success',
  tips: 'success',
  success: 'success',
  check: 'success',
  done: 'success',
  warning: 'warning',
  warn: 'warning',
  caution: 'warning',
  attention: 'warning',
  danger: 'danger',
  error: 'danger',
  failure: 'danger',
  fail: 'danger',
  missing: 'danger',
  bug: 'danger',
};
const NOTE_SELECTOR = [
  'aside',
  '[role=note]',
  '.hint',
  '.admonition',
  '.theme-admonition',
  '.markdown-alert',
  '.callout',
  '.alert',
  '.hints-alert',
].join(', ');
/** The title line of a note, as sites write it. */
const NOTE_TITLE =
  '.admonition-title, .markdown-alert-title, .callout-title, .alert-heading, [class*="admonitionHeading"], .hint-title';
/** Asides that are page furniture, not notes. */
const FURNITURE = /toc|sidebar|navigation|menu|breadcrumb/i;

const wordsOf = (value: string | undefined) =>
  (value ?? '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

/** The style of a note from its classes, then its label and title; `info` when nothing says. */
function hintStyle(note: Cheerio<Element>, title: string): HintStyle {
  const words = [
    ...wordsOf(note.attr('class')),
    ...wordsOf(note.attr('aria-label')),
    ...wordsOf(note.attr('data-type')),
    ...wordsOf(title),
  ];
  for (const word of words) {
    const style = HINT_WORDS[word];
    if (style) return style;
  }
  return 'info';
}

/** Notes (admonitions, alerts, callouts, asides) become hints; a title that is more than the kind's name stays, bold. */
function markHints($: CheerioAPI): void {
  const notes = $(NOTE_SELECTOR)
    .toArray()
    .filter((el): el is Element => el.type === 'tag' && el.tagName !== 'details');
  for (const el of notes.reverse()) {
    const note = $(el);
    if (el.tagName === 'aside' && FURNITURE.test(`${note.attr('class') ?? ''} ${note.attr('id') ?? ''}`)) {
      note.remove();
      continue;
    }
    const titleElement = note.children(NOTE_TITLE).first().length
      ? note.children(NOTE_TITLE).first()
      : note.find(NOTE_TITLE).first();
    const title = titleElement.text().replace(/\s+/g, ' ').trim();
    const style = hintStyle(note, title);
    titleElement.remove();
    const custom = title && !wordsOf(title).every((w) => HINT_WORDS[w]);
    const body = note.html() ?? '';
    if (!custom && !note.text().trim() && !note.find('img').length) {
      note.remove();
      continue;
    }
    note.replaceWith(
      $('<div></div>')
        .attr(HINT, style)
        .html(`${custom ? `<p><strong>${esc(title)}</strong></p>` : ''}${body}`),
    );
  }
}

/** `<details>` becomes an expandable: its first `<summary>` (or "Details", as browsers show) then the rest. */
function markExpandables($: CheerioAPI): void {
  for (const el of $('details').toArray().reverse()) {
    const details = $(el);
    const summary = details.children('summary').first();
    const title = summary.length ? (summary.html() ?? '') : 'Details';
    summary.remove();
    details.replaceWith(
      $('<div></div>')
        .attr(EXPANDABLE, '')
        .append($('<div></div>').attr(SUMMARY, '').html(title), details.html() ?? ''),
    );
  }
}

/** One tab: its title and its panel. */
interface Tab {
  title: string;
  panel: Cheerio<Element>;
}

function replaceWithTabs($: CheerioAPI, widget: Cheerio<Element>, tabs: Tab[]): void {
  const out = $('<div></div>').attr(TABS, '');
  for (const tab of tabs)
    out.append(
      $('<div></div>')
        .attr(TAB, tab.title || 'Tab')
        .html(tab.panel.html() ?? ''),
    );
  widget.replaceWith(out);
}

/**
 * Tab widgets become tabs: ARIA tabs (`[role=tablist]` of `[role=tab]`, each panel its `aria-controls`, else the
 * `[role=tabpanel]` elements in order) and Material for MkDocs' `.tabbed-set` (labels, then blocks).
 */
function markTabs($: CheerioAPI): void {
  for (const el of $('.tabbed-set').toArray().reverse()) {
    const set = $(el);
    const labels = set.find('label').toArray();
    let panels = set.find('.tabbed-block').toArray();
    if (!panels.length) panels = set.children('.tabbed-content').toArray();
    if (!labels.length || labels.length !== panels.length) continue;
    replaceWithTabs(
      $,
      set,
      labels.map((label, i) => ({ title: $(label).text().trim(), panel: $(panels[i]!) })),
    );
  }
  for (const el of $('[role=tablist]').toArray().reverse()) {
    const list = $(el);
    const tabs = list.find('[role=tab]').toArray();
    if (!tabs.length) continue;
    // The widget: the closest ancestor of the list that holds the panels, else the list and the panels after it.
    let widget = list.parent();
    while (widget.length && !widget.find('[role=tabpanel]').length) widget = widget.parent();
    const inOrder = widget.length
      ? widget.find('[role=tabpanel]').toArray()
      : list.nextAll('[role=tabpanel]').toArray();
    if (!widget.length) {
      $(inOrder).remove();
      widget = list;
    }
    const panels = tabs.map((tab, i) => {
      const id = $(tab).attr('aria-controls');
      const byId = id ? inOrder.find((p) => p.attribs.id === id) : undefined;
      return byId ?? inOrder[i];
    });
    if (panels.some((p) => !p)) continue;
    replaceWithTabs(
      $,
      widget,
      tabs.map((tab, i) => ({ title: $(tab).text().trim(), panel: $(panels[i]!) })),
    );
  }
}

/**
 * Math becomes GitBook's math: MathML (KaTeX writes it beside its drawing, which is left out) by its TeX
 * annotation, a block when displayed; MathML without TeX is kept as its text.
 */
function markMath($: CheerioAPI): void {
  $('.katex-html').remove();
  for (const el of $('math').toArray()) {
    const math = $(el);
    const tex = math.find('annotation[encoding="application/x-tex"]').first().text().trim();
    if (!tex) {
      math.replaceWith(esc(math.text()));
      continue;
    }
    const display = math.attr('display') === 'block' || math.closest('.katex-display').length > 0;
    const katex = math.closest('.katex-display, .katex');
    (katex.length ? katex : math).replaceWith(
      $(display ? '<div></div>' : '<span></span>')
        .attr(MATH, display ? 'block' : 'inline')
        .text(tex),
    );
  }
}

/** The title sites write above a code block (Material for MkDocs, Docusaurus, rehype-pretty-code, Starlight…). */
const CODE_TITLES =
  '.filename, [class*="codeBlockTitle"], .code-block-title, .code-title, [data-rehype-pretty-code-title], figcaption.title';

/** A code block with a title above it becomes GitBook's `{% code title %}`. */
function markCodeTitles($: CheerioAPI): void {
  for (const el of $(CODE_TITLES).toArray()) {
    const title = $(el);
    const text = title.text().replace(/\s+/g, ' ').trim();
    // The code block: the next <pre>, beside the title or below it in their common parent.
    const pre = title.nextAll('pre').first().length ? title.nextAll('pre').first() : title.parent().find('pre').first();
    if (!text || !pre.length || pre.closest(`[${CODE_TITLE}]`).length) continue;
    title.remove();
    pre.wrap($('<div></div>').attr(CODE_TITLE, text));
  }
}

/** A table without a header row gets its first row as header (markdown tables need one). */
function headTables($: CheerioAPI): void {
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
}

/**
 * Markdown of an HTML fragment, as GitBook writes it: GitHub-flavoured markdown (turndown with its GFM plugin:
 * tables, strikethrough, task lists, fenced code with its language), plus GitBook's blocks where the HTML has
 * them — notes as hints, `<details>` as expandables, tab widgets as tabs, math (MathML with TeX) as `$$…$$` (a
 * block on lines of its own), titled code as `{% code title %}`, `<kbd>`, `<sub>`, `<sup>` and `<mark>` (a highlight). Link and image URLs are rewritten first.
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
  markMath($);
  markCodeTitles($);
  markTabs($);
  markExpandables($);
  markHints($);
  headTables($);
  return turndown
    .turndown($.html())
    .replace(/[ \t]+$/gm, '')
    .replace(/^(\s*(?:[-*+]|\d+\.)\s+\[[ xX]\])[ \t]+/gm, '$1 ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
