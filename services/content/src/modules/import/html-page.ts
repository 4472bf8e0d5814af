import { load, loadBuffer, type CheerioAPI } from 'cheerio';

/** What the import reads from one HTML page. */
export interface HtmlPage {
  /** The first `<h1>` of the main content (then of the page), else `<title>`, else `og:title`; whitespace collapsed. */
  title: string | undefined;
  /** `<meta name=description>` (or `og:description`). */
  description: string | undefined;
  /** `<link rel=canonical>`, absolute. */
  canonical: string | undefined;
  /** Every `<a href>` of the whole page (navigation included: it is how the other pages are found), absolute, in order. */
  links: string[];
  /** The sources of the content's images, absolute (or `data:` URLs), in order. */
  images: string[];
  /**
   * The main content as HTML: its links and image sources absolute, without what is not content (scripts,
   * styles, forms, navigation, hidden elements, heading permalinks) and without the `<h1>` taken as the title.
   */
  content: string;
}

/** Where the content is, most specific first; the first one holding text wins. */
const MAIN = ['main', '[role=main]'];
/** Never content, wherever they are. */
const NOT_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'link',
  'meta',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'video',
  'audio',
  'map',
  'form',
  'button',
  'input:not([type=checkbox])',
  'select',
  'textarea',
  'dialog',
  'nav',
  '[hidden]',
  '[aria-hidden=true]',
  '[style*="display:none"]',
  '[style*="display: none"]',
].join(', ');
/** Page chrome: left out when the content is the whole body (but an aside that is a note stays: a hint). */
const CHROME = 'header, footer, aside, [role=banner], [role=navigation], [role=contentinfo], [role=complementary]';
const NOTE = /\b(?:note|hint|admonition|callout|alert|tip|warning|caution|danger|important|info)\b/i;
/** Text of a heading permalink (`<a href="#setup">¶</a>`). */
const PERMALINK_TEXT = /^[\s#¶§🔗]*$/u;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The page's `<base href>`, else its own URL. */
function baseOf($: CheerioAPI, url: string): string {
  const href = $('base[href]').first().attr('href');
  if (!href) return url;
  try {
    return new URL(href, url).href;
  } catch {
    return url;
  }
}

/** `href` made absolute against `base` (null when it is not a URL: `javascript:`, malformed). */
export function absoluteUrl(href: string | undefined, base: string): string | null {
  const value = href?.trim();
  if (!value) return null;
  try {
    const u = new URL(value, base);
    return u.protocol === 'javascript:' ? null : u.href;
  } catch {
    return null;
  }
}

/** The source of an image: `src`, unless it is a placeholder of a lazily loaded one (`data-src`, `srcset`). */
function imageSource(attrs: Record<string, string>): string | undefined {
  const lazy = attrs['data-src'] ?? attrs['data-original'] ?? attrs['data-lazy-src'];
  const src = attrs.src;
  if (src && !(lazy && src.startsWith('data:'))) return src;
  if (lazy) return lazy;
  const srcset = attrs.srcset ?? attrs['data-srcset'];
  return srcset?.split(',')[0]?.trim().split(/\s+/)[0] || undefined;
}

/**
 * What scripts would show, kept before hidden elements, buttons and scripts are dropped: every panel of a tab
 * widget (the ones not selected are hidden), the tabs themselves (often buttons), and MathJax 2's TeX (a
 * `<script type="math/tex">`, made MathML with its TeX annotation, as KaTeX writes it).
 */
function keepWidgetContent($: CheerioAPI): void {
  $('[role=tabpanel]').each((_, el) => {
    const panel = $(el);
    panel.removeAttr('hidden').removeAttr('aria-hidden');
    if (/display:\s*none/i.test(panel.attr('style') ?? '')) panel.removeAttr('style');
  });
  $('button[role=tab]').each((_, el) => void (el.tagName = 'span'));
  $('script[type^="math/tex"]').each((_, el) => {
    const script = $(el);
    const math = $('<math><semantics><annotation encoding="application/x-tex"></annotation></semantics></math>');
    math.find('annotation').text(script.text().trim());
    if (/mode=display/.test(script.attr('type') ?? '')) math.attr('display', 'block');
    script.replaceWith(math);
  });
}

/**
 * The main content: `<main>` (or `[role=main]`) holding text, narrowed to its `<article>` when it holds exactly
 * one (documentation sites put the table of contents beside the article); else the page's only `<article>`;
 * else the body without its header, footer, asides and navigation.
 */
export function pickMainContent($: CheerioAPI) {
  keepWidgetContent($);
  $(NOT_CONTENT).remove();
  for (const selector of MAIN) {
    const main = $(selector).first();
    if (main.length && collapse(main.text())) {
      const articles = main.find('article');
      return articles.length === 1 && collapse(articles.text()) ? articles.first() : main;
    }
  }
  const articles = $('article');
  if (articles.length === 1 && collapse(articles.text())) return articles.first();
  // parse5 gives every document a body.
  const body = $('body').first();
  body
    .find(CHROME)
    .filter((_, el) => !(el.tagName === 'aside' && (el.attribs.role === 'note' || NOTE.test(el.attribs.class ?? ''))))
    .remove();
  return body;
}

/** Reads an HTML page fetched from `url` (the body's charset from `charset`, the page's `<meta>`, else sniffed). */
export function readHtmlPage(body: Buffer | string, url: string, charset?: string): HtmlPage {
  const $ =
    typeof body === 'string'
      ? load(body)
      : loadBuffer(body, {
          encoding: { defaultEncoding: 'utf-8', ...(charset ? { transportLayerEncodingLabel: charset } : {}) },
        });
  const base = baseOf($, url);
  // read from the whole page, before picking the main content drops its navigation and hidden parts
  const links = pageLinks($, base);
  const { canonical, description, documentTitle, pageHeading } = pageMetadata($, base);

  const main = pickMainContent($);
  dropPermalinks($, main);
  const title = takeHeading(main) || pageHeading || documentTitle;
  absoluteLinks($, main, base);
  const images = absoluteImages($, main, base);
  figureCaptions($, main);

  return { title, description, canonical, links, images, content: main.html() ?? '' };
}

type Content = ReturnType<typeof pickMainContent>;

/** Every `<a href>` and `<area href>` of the page, absolute, http(s) only, in order. */
function pageLinks($: CheerioAPI, base: string): string[] {
  const links: string[] = [];
  $('a[href], area[href]').each((_, el) => {
    const href = absoluteUrl($(el).attr('href'), base);
    if (href && /^https?:/.test(href)) links.push(href);
  });
  return links;
}

/** What the page says of itself: its canonical URL, description, `<title>` (or `og:title`) and first `<h1>`. */
function pageMetadata($: CheerioAPI, base: string) {
  const canonical = absoluteUrl($('link[rel~=canonical]').first().attr('href'), base) ?? undefined;
  const description =
    collapse(
      $('meta[name=description]').attr('content') ?? $('meta[property="og:description"]').attr('content') ?? '',
    ) || undefined;
  const documentTitle =
    collapse($('title').first().text()) || collapse($('meta[property="og:title"]').attr('content') ?? '') || undefined;
  const pageHeading = collapse($('h1').first().text()) || undefined;
  return { canonical, description, documentTitle, pageHeading };
}

/** Removes the headings' permalinks (`<a href="#setup">¶</a>`). */
function dropPermalinks($: CheerioAPI, main: Content): void {
  main.find('h1, h2, h3, h4, h5, h6').each((_, heading) => {
    $(heading)
      .find('a[href^="#"]')
      .each((_, a) => {
        if (PERMALINK_TEXT.test($(a).text())) $(a).remove();
      });
  });
}

/** The text of the content's first `<h1>`, taken out of the content when it has any ('' when none). */
function takeHeading(main: Content): string {
  const h1 = main.find('h1').first();
  const text = collapse(h1.text());
  if (h1.length && text) h1.remove();
  return text;
}

/** Makes the content's links absolute (same-page anchors stay as they are); a link that is no URL loses its href. */
function absoluteLinks($: CheerioAPI, main: Content, base: string): void {
  main.find('a[href]').each((_, el) => {
    const a = $(el);
    const href = a.attr('href')!.trim();
    if (href.startsWith('#')) return; // same-page anchors stay as they are
    const absolute = absoluteUrl(href, base);
    if (absolute) a.attr('href', absolute);
    else a.removeAttr('href');
  });
}

/** Gives each image of the content its absolute source (lazy loading undone), dropping those without: the sources. */
function absoluteImages($: CheerioAPI, main: Content, base: string): string[] {
  const images: string[] = [];
  main.find('img').each((_, el) => {
    const img = $(el);
    const src = absoluteUrl(imageSource(el.attribs), base);
    if (!src) return void img.remove();
    img.attr('src', src);
    images.push(src);
    for (const name of ['srcset', 'data-src', 'data-srcset', 'data-original', 'data-lazy-src', 'sizes', 'loading'])
      img.removeAttr(name);
  });
  return images;
}

/** A figure's caption becomes its image's title (the document converter reads it as the image caption). */
function figureCaptions($: CheerioAPI, main: Content): void {
  main.find('figure').each((_, el) => {
    const figure = $(el);
    const pictures = figure.find('img');
    const caption = collapse(figure.find('figcaption').text());
    if (pictures.length !== 1) return;
    if (caption) pictures.first().attr('title', caption);
    figure.find('figcaption').remove();
  });
}
