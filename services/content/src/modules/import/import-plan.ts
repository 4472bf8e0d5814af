import { load } from 'cheerio';
import type { ContentChange } from '@quire/contracts';
import { slugify, uniqueSlug } from '@quire/kit';
import { documentHeadings } from '@quire/document/model';
import type { RemoteFile } from '../content/remote-file.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { buildPageTree } from './page-tree.ts';
import { pageKey, segmentName } from './site-scope.ts';
import type { CrawledPage, CrawledSite } from './website-crawler.ts';

/** What an import writes: a batch of changes for the content editor, and the bytes of the files it inserts by URL. */
export interface ImportPlan {
  changes: ContentChange[];
  /** The bytes of each image the changes insert (by the URL given in `insert_files`), downloaded beforehand. */
  files: ReadonlyMap<string, RemoteFile>;
}

/** The batch's local references: `./import-page-3.md` is a link to the third page, `./import-file-2` the second image. */
const pageRef = (index: number) => `import-page-${index + 1}`;
const fileRef = (index: number) => `import-file-${index + 1}`;
/** `insert_files` takes at most 20 files per change. */
const FILES_PER_CHANGE = 20;

const normalizeText = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The anchors of a page: the id of each heading of its HTML (and of the elements inside it) → the GitHub-style
 * anchor the same heading has in the page's markdown, so that `other.html#setup` becomes a link to the heading
 * wherever the site put its ids. Headings are matched in order by their text.
 */
export function headingAnchors(content: string, markdown: string): Map<string, string> {
  const anchors = new Map<string, string>();
  const $ = load(content, null, false);
  const written = documentHeadings(markdown);
  let next = 0;
  $('h1, h2, h3, h4, h5, h6').each((_, el) => {
    const heading = $(el);
    const text = normalizeText(heading.text());
    if (!text) return;
    const at = written.findIndex((h, i) => i >= next && normalizeText(h.title) === text);
    if (at < 0) return;
    next = at + 1;
    // Its id, those of elements inside it, and that of a section it opens (`<section id="setup"><h2>…`).
    const section = heading.parent('section[id], div.section[id]');
    const opens = section.length && section.find('h1, h2, h3, h4, h5, h6').first().is(heading);
    const ids = [
      heading.attr('id'),
      ...heading
        .find('[id], a[name]')
        .map((_, inner) => $(inner).attr('id') ?? $(inner).attr('name'))
        .get(),
      opens ? section.attr('id') : undefined,
    ];
    for (const id of ids) if (id && !anchors.has(id)) anchors.set(id, written[at]!.id);
  });
  return anchors;
}

/**
 * What the content editor would read as something else at the very start of a document: a divider (`---`, taken
 * for the start of a frontmatter) is dropped, a `# Title` (taken for the page's title and dropped from its body)
 * goes one level down.
 */
const keepLeadingContent = (markdown: string) => markdown.replace(/^(?:---[ \t]*(?:\n+|$))+/, '').replace(/^# /, '## ');

/**
 * The batch of changes importing a crawled site into a revision whose top-level slugs are `topSlugs`: the images
 * (`insert_files`, by URL, their bytes in `files`), then the pages parents first (`insert_page` with `into` the
 * parent's ref, appended after the existing pages), each with its title, description, a slug from its URL (unique
 * among its siblings) and its markdown, whose links to imported pages are `./<ref>.md#anchor` and whose images
 * are `./<ref>`: the content editor turns those into page links and file references once it knows the ids.
 * Links to anything else are absolute URLs to the site.
 */
export function planImport(site: CrawledSite, topSlugs: ReadonlySet<string>): ImportPlan {
  const pageIndex = new Map(site.pages.map((p, i) => [p.key, i]));
  const markdownOf = importedMarkdown(site, pageIndex);
  const { changes, files } = insertFiles(site);
  changes.push(...insertPages(site, topSlugs, pageIndex, markdownOf));
  return { changes, files };
}

/** The markdown of a page (`self`: its index) with its links to imported pages and images as the batch's refs. */
function importedMarkdown(
  site: CrawledSite,
  pageIndex: ReadonlyMap<string, number>,
): (page: CrawledPage, self: number) => string {
  const imageIndex = new Map([...site.images.keys()].map((url, i) => [url, i]));
  const resolve = (key: string | null): number | undefined => {
    for (let hops = 0; key !== null && hops < 8; hops++) {
      const index = pageIndex.get(key);
      if (index !== undefined) return index;
      key = site.aliases.get(key) ?? null;
    }
    return undefined;
  };

  // Markdown without links first: the anchors of every page, for the links that point at them.
  const anchors = site.pages.map((p) => headingAnchors(p.content, htmlToMarkdown(p.content)));

  return (page, self) =>
    htmlToMarkdown(page.content, {
      link(href) {
        if (href.startsWith('#')) {
          const anchor = anchors[self]!.get(decodeFragment(href.slice(1)));
          return anchor ? `#${anchor}` : null;
        }
        const target = resolve(pageKey(href));
        if (target === undefined) return href;
        const fragment = decodeFragment(new URL(href).hash.slice(1));
        const anchor = fragment ? anchors[target]!.get(fragment) : undefined;
        if (target === self) return anchor ? `#${anchor}` : `./${pageRef(target)}.md`;
        return `./${pageRef(target)}.md${anchor ? `#${anchor}` : ''}`;
      },
      image(src) {
        const index = imageIndex.get(src);
        return index === undefined ? src : `./${fileRef(index)}`;
      },
    });
}

/** The `insert_files` changes of the site's images, FILES_PER_CHANGE a change, and their bytes by URL. */
function insertFiles(site: CrawledSite): { changes: ContentChange[]; files: Map<string, RemoteFile> } {
  const changes: ContentChange[] = [];
  const files = new Map<string, RemoteFile>();
  const images = [...site.images.values()];
  for (let start = 0; start < images.length; start += FILES_PER_CHANGE) {
    const chunk = images.slice(start, start + FILES_PER_CHANGE);
    changes.push({
      operation: 'insert_files',
      files: chunk.map((image, i) => ({
        ref: fileRef(start + i),
        name: image.name.slice(-256),
        contentType: image.contentType,
        url: image.url,
      })),
    });
    for (const image of chunk) files.set(image.url, { bytes: image.bytes, contentType: image.contentType });
  }
  return { changes, files };
}

/** The `insert_page` changes of the site's pages, parents first, each slug unique among its siblings. */
function insertPages(
  site: CrawledSite,
  topSlugs: ReadonlySet<string>,
  pageIndex: ReadonlyMap<string, number>,
  markdownOf: (page: CrawledPage, self: number) => string,
): ContentChange[] {
  const changes: ContentChange[] = [];
  const taken = new Map<string | null, Set<string>>([[null, new Set(topSlugs)]]);
  for (const node of buildPageTree(site.pages.map((p) => ({ key: p.key, segments: site.scope.segments(p.key) })))) {
    const index = pageIndex.get(node.key)!;
    const page = site.pages[index]!;
    const segments = site.scope.segments(page.key);
    const title = (page.title || segmentName(segments.at(-1) ?? '') || new URL(page.key).hostname).slice(0, 255);
    const siblings = taken.get(node.parent) ?? taken.set(node.parent, new Set()).get(node.parent)!;
    const slug = uniqueSlug(slugify(segments.length ? segmentName(segments.at(-1)!) : title), siblings);
    siblings.add(slug);
    changes.push({
      operation: 'insert_page',
      ref: pageRef(index),
      ...(node.parent !== null ? { into: pageRef(pageIndex.get(node.parent)!) } : {}),
      title,
      slug,
      ...(page.description ? { description: page.description.slice(0, 1000) } : {}),
      document: { markdown: keepLeadingContent(markdownOf(page, index)) },
    });
  }
  return changes;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
