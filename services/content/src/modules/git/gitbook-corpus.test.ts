import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSONDocumentSchema } from '@quire/contracts';
import { markdownToDocument, normalizeMarkdown } from '@quire/document/model';
import { repoFilesOf, type RepoPage } from './repo-export.ts';
import { readRepo } from './repo-import.ts';

/**
 * A GitBook monorepo of two spaces (`product/`, `api/`), written by hand in the format GitBook's Git Sync writes
 * (fixtures/gitbook-monorepo): read as Git Sync reads a project directory, normalised as pages are stored, then
 * exported again, every file comes back byte for byte (docs/git-sync.md lists the normalisations an export may
 * still make; this corpus holds none of them).
 */
const ROOT = new URL('./fixtures/gitbook-monorepo/', import.meta.url);

function filesUnder(dir: URL, prefix = ''): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) for (const [p, b] of filesUnder(new URL(`${entry.name}/`, dir), `${path}/`)) out.set(p, b);
    else out.set(path, new Uint8Array(readFileSync(new URL(entry.name, dir))));
  }
  return out;
}

const all = filesUnder(ROOT);
const spaceFiles = (space: string) =>
  new Map([...all].filter(([p]) => p.startsWith(`${space}/`)).map(([p, b]) => [p.slice(space.length + 1), b]));

/** Ids as a sync gives them: one per path. */
const idsOf = () => {
  let n = 0;
  const known = new Map<string, string>();
  const id = (kind: string) => (path: string) => {
    if (!known.has(path)) known.set(path, `${kind}${++n}`);
    return known.get(path)!;
  };
  return { page: id('p'), file: id('f') };
};

const normalized = (pages: readonly RepoPage[]): RepoPage[] =>
  pages.map((p) => ({
    ...p,
    markdown: p.markdown ? normalizeMarkdown(p.markdown) : '',
    children: normalized(p.children),
  }));

/** The organization's OpenAPI specifications, as the export is given them: `petstore` from its URL. */
const SPEC_URLS = new Map([['petstore', 'https://petstore3.swagger.io/api/v3/openapi.json']]);

const flat = (pages: readonly RepoPage[]): RepoPage[] => pages.flatMap((p) => [p, ...flat(p.children)]);
const dec = new TextDecoder();

describe.each(['product', 'api'])('the GitBook corpus, space %s', (space) => {
  const files = spaceFiles(space);
  const read = readRepo(files, idsOf());
  const pages = normalized(read.pages);
  const reusableContents = read.reusableContents?.map((r) => ({ ...r, markdown: normalizeMarkdown(r.markdown) }));

  it('exports back every file byte for byte (import → normalise → export)', () => {
    const out = repoFilesOf({ ...read, pages, reusableContents, knownPaths: read.paths, specUrls: SPEC_URLS });
    const text = (m: Map<string, Uint8Array>) =>
      Object.fromEntries(
        [...m].map(([p, b]) => [p, p.endsWith('.png') || p.endsWith('.pdf') ? b.length : dec.decode(b)]),
      );
    expect(text(out)).toEqual(text(files));
    for (const [path, bytes] of files) expect(Buffer.from(out.get(path)!).equals(Buffer.from(bytes)), path).toBe(true);
  });

  it('reads every page into a valid document, every relative reference into a page or a file', () => {
    for (const page of flat(pages).filter((p) => p.kind === 'document')) {
      expect(() => JSONDocumentSchema.parse(markdownToDocument(page.markdown)), page.title).not.toThrow();
      // no relative path left: assets are files, pages are pages
      expect(page.markdown, page.title).not.toMatch(/(?:src|srcset|href|url)="(?:\.\.\/|\.gitbook|[a-z-]+\/)/);
      expect(page.markdown, page.title).not.toMatch(/\]\((?!https?:|\/pages\/|gitbook-|#)/);
    }
  });
});

describe('the GitBook corpus read into content', () => {
  it('reads .gitbook/includes/ into a reusable content the FAQ includes by its id', () => {
    const read = readRepo(spaceFiles('product'), idsOf());
    const [help] = read.reusableContents!;
    expect(help).toMatchObject({ title: 'Need help?' });
    const faq = flat(read.pages).find((p) => p.title === 'FAQ')!;
    expect(faq.markdown).toContain(`{% include "${help!.id}" %}`);
    expect(markdownToDocument(normalizeMarkdown(faq.markdown)).nodes.at(-1)).toMatchObject({
      type: 'reusable-content',
      data: { ref: { kind: 'reusable-content', reusableContent: help!.id } },
    });
    const doc = markdownToDocument(normalizeMarkdown(help!.markdown));
    expect(doc.nodes.map((n) => n.type)).toEqual(['hint', 'heading-1', 'list-unordered']);
    expect(help!.markdown).toContain(`(/pages/${faq.id}#billing)`);
  });

  const read = readRepo(spaceFiles('product'), idsOf());
  const pages = normalized(read.pages);
  const [welcome, quickstart, getStarted, build] = pages as [RepoPage, RepoPage, RepoPage, RepoPage];

  it('keeps groups apart by their anchors: two pages titled Guides get two slugs under two groups', () => {
    expect([getStarted.kind, getStarted.title, getStarted.slug]).toEqual(['group', 'Get started', 'get-started']);
    expect([build.kind, build.title, build.slug]).toEqual(['group', 'Build', 'build']);
    const guides = [getStarted.children[0]!, build.children[0]!];
    expect(guides.map((g) => [g.title, g.slug])).toEqual([
      ['Guides', 'guides'],
      ['Guides', 'guides'],
    ]);
    // Without the paths it was read from, the export still gives each its own file, in its group's folder.
    const out = repoFilesOf({ ...read, pages });
    expect([...out.keys()]).toEqual(expect.arrayContaining(['get-started/guides/README.md', 'build/guides.md']));
  });

  it('reads figures, pictures (light and dark) and HTML into blocks, never text', () => {
    const doc = markdownToDocument(welcome.markdown);
    const types = doc.nodes.map((n) => n.type);
    expect(types.filter((t) => t === 'images')).toHaveLength(3);
    expect(types.filter((t) => t === 'html')).toHaveLength(2); // the <div> around a figure, opened and closed
    expect(doc.nodes.find((n) => n.type === 'paragraph' && n.data?.align === 'center')).toBeDefined();
    const picture = doc.nodes.filter((n) => n.type === 'images')[1];
    expect(picture).toMatchObject({
      nodes: [{ data: { ref: { kind: 'file' }, refDark: { kind: 'file' }, alt: 'The icon' } }],
    });
    // GitBook writes its heading-1 `##` (the page's title is the `#` one)
    const heading = doc.nodes.find((n) => n.type === 'heading-1');
    expect(heading).toMatchObject({ data: { id: 'why' }, meta: { id: 'why' } });
    expect(doc.data.frontMatter).toMatchObject({ cover: expect.stringMatching(/^gitbook-file:f/), coverY: 0 });
  });

  it('reads a changelog into updates, each dated', () => {
    const changelog = build.children[1]!;
    const doc = markdownToDocument(changelog.markdown);
    const updates = doc.nodes.find((n) => n.type === 'updates');
    expect(updates).toMatchObject({ data: { format: 'full' } });
    if (updates?.type !== 'updates') throw new Error('no updates');
    expect(updates.nodes.map((u) => [u.data.date, u.nodes.map((n) => n.type)])).toEqual([
      ['2026-01-15', ['heading-1', 'paragraph']],
      ['2026-01-01', ['paragraph']],
    ]);
  });

  it('keeps tabs inside their step, one stepper; reads prompts and captioned embeds', () => {
    const doc = markdownToDocument(quickstart.markdown);
    expect(doc.nodes.map((n) => n.type)).toEqual(['stepper', 'columns', 'prompt', 'embed']);
    expect(doc.nodes[2]).toMatchObject({ data: { description: 'Summarise this page', icon: 'sparkles' } });
    expect(doc.nodes[3]).toMatchObject({
      data: { url: 'https://www.youtube.com/watch?v=abc', caption: 'A video caption' },
    });
    const stepper = doc.nodes[0];
    if (stepper?.type !== 'stepper') throw new Error('no stepper');
    expect(stepper.nodes[0]?.nodes.map((n) => n.type)).toEqual(['heading-2', 'tabs']);
  });
});

describe("the GitBook corpus: GitBook's tables, buttons, headings, OpenAPI blocks and covers", () => {
  const product = readRepo(spaceFiles('product'), idsOf());
  const api = readRepo(spaceFiles('api'), idsOf());
  const [welcome, , getStarted, build] = normalized(product.pages) as [RepoPage, RepoPage, RepoPage, RepoPage];
  const docOf = (page: RepoPage) => markdownToDocument(page.markdown);

  it('reads a table with column widths into a grid table block, not HTML', () => {
    const changelog = docOf(build.children[1]!);
    const table = changelog.nodes.find((n) => n.type === 'table');
    expect(changelog.nodes.some((n) => n.type === 'html')).toBe(false);
    expect(table).toMatchObject({
      data: { view: { type: 'grid', columns: ['c1', 'c2'], columnWidths: { c1: 160 }, hideHeader: false } },
    });
  });

  it('reads a hidden header, aligned and number columns, marks and links in cells', () => {
    const faq = docOf(getStarted.children[1]!);
    const tables = faq.nodes.filter((n) => n.type === 'table');
    expect(tables).toHaveLength(2); // the markdown one and the HTML one
    const table = tables[1];
    if (table?.type !== 'table') throw new Error('no table');
    expect(table.data.view).toMatchObject({ type: 'grid', hideHeader: true, columnWidths: { c1: 200 } });
    expect(table.data.definition).toMatchObject({
      c2: { type: 'text', textAlignment: 'center' },
      c3: { type: 'number', title: 'Seats' },
    });
    expect(Object.values(table.data.records).map((r) => r.values.c3)).toEqual([10, 500]);
    expect(JSON.stringify(table.fragments)).toContain('"type":"bold"');
    expect(JSON.stringify(table.fragments)).toContain('https://status.example.com');
    // GitBook's character references (`&#x26;`, `&#x3C;`) read as text
    expect(JSON.stringify(table.fragments)).toContain('Team & partners (< 10 seats)');
    expect(JSON.stringify(faq.nodes)).toContain('Plans & prices compared (<2027)');
  });

  it('reads select, users and image columns (a grid and cards) as GitBook writes them', () => {
    const guides = docOf(build.children[0]!);
    const [grid, cards] = guides.nodes.filter((n) => n.type === 'table');
    if (grid?.type !== 'table' || cards?.type !== 'table') throw new Error('no tables');
    expect(Object.values(grid.data.definition).map((d) => d.type)).toEqual([
      'text',
      'select',
      'checkbox',
      'users',
      'image',
    ]);
    expect(grid.data.records.r1!.values.c5).toMatchObject({ kind: 'file', file: expect.stringMatching(/^f/) });
    expect(cards.data.view).toMatchObject({ type: 'cards', coverDefinition: 'c3', targetDefinition: 'c4' });
    expect(cards.data.definition.c1).toEqual({ id: 'c1', title: '', type: 'users', multiple: true });
  });

  it("keeps GitBook's fourth heading level: ## ### #### (and <h3 align>) are heading-1, -2, -3 (the title is #)", () => {
    const faq = docOf(getStarted.children[1]!);
    const headings = faq.nodes.filter((n) => n.type.startsWith('heading-')).map((n) => n.type);
    expect(headings).toEqual(['heading-1', 'heading-2', 'heading-2', 'heading-3']);
    expect(getStarted.children[1]!.markdown).toContain('\n### Within 30 days\n');
  });

  it('reads link and action buttons as button inlines', () => {
    const doc = docOf(welcome);
    expect(JSON.stringify(doc.nodes).split('"type":"button"')).toHaveLength(3);
    const paragraph = doc.nodes.find((n) => n.type === 'paragraph' && JSON.stringify(n).includes('"button"'));
    expect(paragraph).toMatchObject({
      nodes: expect.arrayContaining([
        expect.objectContaining({
          type: 'button',
          // a page's link as stored (`/pages/<id>`, see docs/git-sync.md), written back as its path
          data: {
            label: 'Get started',
            kind: 'primary',
            ref: { kind: 'url', url: expect.stringMatching(/^\/pages\//) },
          },
        }),
        expect.objectContaining({
          type: 'button',
          data: {
            label: 'Ask the docs',
            kind: 'secondary',
            icon: 'sparkles',
            action: { action: 'ask', query: 'How do I install it?' },
          },
        }),
      ]),
    });
  });

  it('reads {% openapi %} and {% swagger %} blocks with their file or URL, and OpenAPI links to the spec', () => {
    const guides = flat(normalized(api.pages)).find((p) => p.title === 'Guides')!;
    const blocks = docOf(guides).nodes.filter((n) => n.type === 'swagger');
    expect(blocks.map((b) => b.data)).toEqual([
      { ref: { kind: 'file', file: expect.any(String) }, path: '/pet', method: 'post', tag: 'openapi' },
      {
        ref: { kind: 'url', url: 'https://petstore3.swagger.io/api/v3/openapi.json' },
        path: '/pet',
        method: 'put',
        tag: 'openapi',
      },
      { ref: { kind: 'file', file: expect.any(String) }, path: '/pet/{petId}', method: 'get' },
    ]);
    // without the organization's spec, the link is the spec's reference (Quire's own)
    const out = repoFilesOf({ ...api, pages: normalized(api.pages), knownPaths: api.paths });
    expect(dec.decode(out.get('reference/schemas.md'))).toContain('[OpenAPI petstore](gitbook-openapi:petstore)');
  });

  it("reads the front matter's cover into the page's cover", () => {
    expect(product.pages[0]?.cover).toEqual({ ref: { kind: 'file', file: expect.stringMatching(/^f/) }, yPos: 0 });
  });
});
