import { evaluateDocument, hidesBlocks as hidesBlocksFor, type ConditionContext } from '@quire/kit';
import { pageDocuments, pageMarkdowns } from './content-source.ts';
import type { SitePage } from './page-tree.ts';
import { textOf, xml, type DocNode, type JSONDocument } from '@quire/document/render';
import {
  absolutePageUrl,
  siteSpaceTitle,
  siteTitleFor,
  spaceView,
  visibleSiteSpaces,
  visitorOf,
  type SiteView,
  type SpaceView,
} from './site-view.ts';

/** At most this many pages in `llms-full.txt` (and 5 MB of text): past it, `llms.txt` lists the rest. */
const LLMS_FULL_PAGES = 2_000;
const LLMS_FULL_BYTES = 5_000_000;

/** Pages machines are told about: indexable ones (hidden pages are not in the tree at all). */
const listed = (p: SitePage) => !p.noIndex && !p.noRobotsIndex;

/** `robots.txt`: public sites invite crawlers and name their sitemap; every other audience disallows all. */
export function robots(v: SiteView): string {
  if (v.site.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${v.siteUrl}/sitemap.xml\n`;
}

async function spaces(v: SiteView): Promise<SpaceView[]> {
  return Promise.all(visibleSiteSpaces(v).map((t) => spaceView(v, t)));
}

/** `sitemap.xml` of a public site: the indexable pages of every site space an anonymous visitor sees. */
export async function sitemap(v: SiteView): Promise<string> {
  const urls: string[] = [];
  for (const s of await spaces(v)) {
    for (const p of s.pages.reading.filter(listed)) {
      const lastmod = p.updatedAt ? `<lastmod>${xml(p.updatedAt.slice(0, 10))}</lastmod>` : '';
      urls.push(`<url><loc>${xml(absolutePageUrl(v, s, p))}</loc>${lastmod}</url>`);
    }
  }
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
  return `${head}\n${urls.join('\n')}\n</urlset>\n`;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/** `llms.txt` (llmstxt.org): the site's title, then each site space's pages as markdown links to their `.md`. */
export async function llmsTxt(v: SiteView): Promise<string> {
  const out = [`# ${oneLine(siteTitleFor(v, null))}`, ''];
  for (const s of await spaces(v)) {
    out.push(`## ${oneLine(siteSpaceTitle(s.siteSpace))}`, '');
    for (const p of s.pages.reading.filter(listed)) {
      const description = p.description ? `: ${oneLine(p.description)}` : '';
      out.push(`- [${oneLine(p.title).replace(/[[\]]/g, '\\$&')}](${mdUrl(absolutePageUrl(v, s, p))})${description}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The `.md` URL of a page: the space's first page is the space's root, so its markdown is `index.md` there. */
export const mdUrl = (pageUrl: string) =>
  /\/sites\/[^/]+$|^https:\/\/[^/]+$/.test(pageUrl) ? `${pageUrl}/index.md` : `${pageUrl}.md`;

/** Whether the document has a block this visitor may not see (an `if` whose condition does not hold). */
export const hidesBlocks = (node: DocNode | undefined, visitor: ConditionContext): boolean =>
  hidesBlocksFor(node, { context: visitor });

/**
 * Pages as markdown, by id: the stored markdown, or — for a page with blocks this visitor may not see — the
 * text of what the visitor sees (the markdown would carry the hidden blocks).
 */
export async function markdownOf(v: SiteView, s: SpaceView, pages: SitePage[]): Promise<Map<string, string>> {
  const ctx = { peers: v.peers, requestId: v.requestId };
  const ids = pages.map((p) => p.id);
  const [markdown, documents] = await Promise.all([
    pageMarkdowns(ctx, s.siteSpace.entity.spaceId, s.revision.revision.id, ids),
    pageDocuments(ctx, s.siteSpace.entity.spaceId, s.revision.revision.id, ids),
  ]);
  const out = new Map<string, string>();
  for (const p of pages) {
    const doc = documents.get(p.id) as DocNode | undefined;
    const text =
      doc && hidesBlocks(doc, visitorOf(v))
        ? textOf(evaluateDocument(doc, { context: visitorOf(v) }) as JSONDocument)
        : (markdown.get(p.id) ?? '');
    const body = publicReferences(text.trim(), v, s);
    out.set(p.id, `# ${oneLine(p.title)}\n\n${p.description ? `${oneLine(p.description)}\n\n` : ''}${body}\n`);
  }
  return out;
}

/**
 * Quire's own references in stored markdown (`/pages/<id>#anchor`, `gitbook-file:<id>`, `gitbook-page:<id>`) as
 * the public URLs a reader outside Quire can follow: the page's URL on the site (absolute), the file's download
 * link. Only destinations are rewritten (`](…)`, `<…>`, a link's text that is a reference (a content-ref's, or an HTML
 * table cell's `<a href="gitbook-file:f1">gitbook-file:f1</a>`), and `src`/`srcset`/`href`/`url` attributes of HTML and
 * GitBook's tags); a page not on the site keeps its reference. Linear in the text.
 */
const REFERENCE =
  /(\]\(<?|<|\[|>|\s(?:src|srcset|href|url)=")(\/pages\/|gitbook-page:|gitbook-file:)([A-Za-z0-9_%.~-]+)(#[^)\s"<>\]]*)?/g;

export function publicReferences(markdown: string, v: SiteView, s: SpaceView): string {
  if (!markdown.includes('/pages/') && !markdown.includes('gitbook-')) return markdown;
  return markdown.replace(REFERENCE, (whole, before: string, scheme: string, rawId: string, anchor?: string) => {
    let id = rawId;
    try {
      id = decodeURIComponent(rawId);
    } catch {
      return whole;
    }
    if (scheme === 'gitbook-file:') {
      const file = s.files.get(id);
      return file ? `${before}${new URL(file.downloadURL, `${v.siteUrl}/`).href}` : whole;
    }
    const page = s.pages.byId.get(id);
    if (!page || page.type === 'link') return whole;
    return `${before}${absolutePageUrl(v, s, page)}${anchor ?? ''}`;
  });
}

/** `llms-full.txt`: every listed page of the site as markdown, in reading order (bounded). */
export async function llmsFullTxt(v: SiteView): Promise<string> {
  const parts: string[] = [];
  let bytes = 0;
  let count = 0;
  for (const s of await spaces(v)) {
    const pages = s.pages.reading.filter(listed).slice(0, LLMS_FULL_PAGES - count);
    const texts = await markdownOf(v, s, pages);
    for (const p of pages) {
      const text = texts.get(p.id) ?? '';
      if (bytes + text.length > LLMS_FULL_BYTES) return parts.join('\n---\n\n');
      parts.push(`Source: ${absolutePageUrl(v, s, p)}\n\n${text}`);
      bytes += text.length;
      count++;
    }
  }
  return parts.join('\n---\n\n');
}
