import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentChange } from '@quire/contracts';
import { useWebSite } from '@quire/kit/testing';
import { headingAnchors, planImport } from './import-plan.ts';
import { ACME_DOCS, crawlLimits, DIAGRAM, localFetch, LOGO } from './import.fixtures.ts';
import { crawlWebsite, type CrawledSite } from './website-crawler.ts';

const site = useWebSite(ACME_DOCS);
let crawled: CrawledSite;
beforeAll(async () => {
  crawled = await crawlWebsite(`${site.origin}/docs/`, localFetch, crawlLimits());
});

type Insert = Extract<ContentChange, { operation: 'insert_page' }>;
const inserts = (changes: ContentChange[]) => changes.filter((c): c is Insert => c.operation === 'insert_page');
const markdownOf = (changes: ContentChange[], title: string) =>
  (inserts(changes).find((c) => c.title === title)!.document as { markdown: string }).markdown;

describe('planImport', () => {
  it('inserts the images, then the pages parents first, nested by URL path, with slugs from their URLs', () => {
    const { changes, files } = planImport(crawled, new Set());
    expect(changes[0]).toEqual({
      operation: 'insert_files',
      files: [
        { ref: 'import-file-1', name: 'logo.png', contentType: 'image/png', url: `${site.origin}/docs/img/logo.png` },
        {
          ref: 'import-file-2',
          name: 'diagram.png',
          contentType: 'image/png',
          url: `${site.origin}/docs/img/diagram.png`,
        },
      ],
    });
    expect(files.get(`${site.origin}/docs/img/logo.png`)).toEqual({ bytes: LOGO, contentType: 'image/png' });
    expect(files.get(`${site.origin}/docs/img/diagram.png`)!.bytes.equals(DIAGRAM)).toBe(true);
    expect(inserts(changes).map((c) => [c.ref, c.into ?? null, c.title, c.slug])).toEqual([
      ['import-page-1', null, 'Acme Docs', 'acme-docs'],
      ['import-page-2', null, 'Setup', 'setup'], // no /docs/guides/ page: at the top level
      ['import-page-3', null, 'API', 'api'],
      ['import-page-4', null, 'FAQ', 'faq'],
      ['import-page-5', 'import-page-3', 'Authentication', 'auth'],
      ['import-page-6', 'import-page-3', 'Tokens', 'tokens'],
    ]);
  });

  it('keeps slugs unique beside the pages already at the top level', () => {
    const { changes } = planImport(crawled, new Set(['setup', 'api']));
    expect(inserts(changes).map((c) => c.slug)).toEqual(['acme-docs', 'setup-2', 'api-2', 'faq', 'auth', 'tokens']);
  });

  it('writes links to imported pages as refs of the batch (to the heading their fragment names), images as file refs, anything else as absolute URLs', () => {
    const { changes } = planImport(crawled, new Set());
    const written: Record<string, string[]> = {
      'Acme Docs': [
        '[installing on Linux](./import-page-2.md#installing-on-linux)',
        '[API reference](./import-page-3.md)',
        '![The Acme logo](./import-file-1)',
        '[FAQ](./import-page-4.md)',
        '[Old FAQ](./import-page-4.md)',
        `[Manual (PDF)](${site.origin}/docs/manual.pdf)`,
        `[Missing](${site.origin}/docs/missing.html)`,
        '[Example](https://example.com/)',
      ],
      Setup: [
        '## Installing on Linux\n',
        '[the start](./import-page-1.md)',
        '[the install steps](#installing-on-linux)',
        '```sh\ncurl -fsSL https://acme.io/install.sh | sh\n```',
        '![Architecture](./import-file-2 "How Acme fits together")',
        `![Missing](${site.origin}/docs/img/missing.png)`,
        '| OS | Supported |\n| --- | --- |\n| Linux | yes |',
      ],
      Authentication: ['[Tokens](./import-page-6.md)'],
    };
    for (const [title, parts] of Object.entries(written))
      for (const part of parts) expect(markdownOf(changes, title)).toContain(part);
    // The title, the navigation, the footer and the scripts are left out.
    expect(markdownOf(changes, 'Acme Docs')).not.toMatch(/Acme Docs\n|Home|Legal|analytics|# Acme Docs/);
  });
});

describe('headingAnchors', () => {
  it('maps the ids of headings (and of elements inside them) to their GitHub anchors in the markdown, repeats counted', () => {
    const anchors = headingAnchors(
      '<h2 id="a1">Intro</h2><h2 id="s"><a name="old"></a>Set <em>up</em></h2><h3 id="again">Intro</h3><h4>No id</h4><h2 id="empty"> </h2>' +
        '<section id="usage"><h2>Usage</h2><p>Text</p><h3>Details</h3></section>',
      '## Intro\n\n## Set _up_\n\n### Intro\n\n#### No id\n\n## Usage\n\nText\n\n### Details\n',
    );
    expect(Object.fromEntries(anchors)).toEqual({
      a1: 'intro',
      s: 'set-up',
      old: 'set-up',
      again: 'intro-1',
      usage: 'usage',
    });
  });
});
