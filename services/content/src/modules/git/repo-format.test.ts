import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '@quire/document/model';
import {
  filePathsOf,
  knownPathsOf,
  pagePathsOf,
  repoFilesOf,
  reusablePathsOf,
  type RepoContent,
  type RepoPage,
} from './repo-export.ts';
import { readRepo, readGitbookYaml } from './repo-import.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const repo = (files: Record<string, string>) => new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)]));
let n = 0;
const freshIds = { page: () => `p${++n}`, file: () => `f${++n}` };

describe('reading a repository in GitBook format', () => {
  it('takes the tree, order and titles from SUMMARY.md, groups and folder READMEs, links and assets', () => {
    const read = readRepo(
      repo({
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Setup](setup/README.md)\n  * [Install](setup/install.md)\n',
        'README.md':
          '---\ndescription: Start here\nicon: rocket\n---\n\n# Welcome\n\nSee [install](setup/install.md#linux) and ![logo](.gitbook/assets/logo.png).\n',
        'setup/README.md': '# Setup\n\nBack to [home](../README.md).\n',
        'setup/install.md': '---\nhidden: true\n---\n# Install\n\nRun it.\n',
        '.gitbook/assets/logo.png': 'PNG',
      }),
      freshIds,
    );
    const [welcome, guides] = read.pages as [RepoPage, RepoPage];
    expect(welcome).toMatchObject({ title: 'Welcome', description: 'Start here', icon: 'rocket', kind: 'document' });
    expect(guides).toMatchObject({ kind: 'group', title: 'Guides' });
    const setup = guides.children[0]!;
    const install = setup.children[0]!;
    expect([setup.title, setup.slug, install.title, install.slug, install.hidden]).toEqual([
      'Setup',
      'setup',
      'Install',
      'install',
      true,
    ]);
    const logo = read.files[0]!;
    expect(logo.name).toBe('logo.png');
    expect(welcome.markdown).toContain(`(/pages/${install.id}#linux)`);
    expect(welcome.markdown).toContain(`(gitbook-file:${logo.id})`);
    expect(setup.markdown).toContain(`(/pages/${welcome.id})`);
  });

  it('rewrites the url of {% content-ref %} and {% embed %} tags both ways, leaving web URLs alone', () => {
    const files = {
      'SUMMARY.md': '* [Home](README.md)\n* [Usage](guide/usage.md)\n',
      'README.md':
        '# Home\n\n{% content-ref url="guide/usage.md" %}\n[usage.md](guide/usage.md)\n{% endcontent-ref %}\n\n' +
        '{% embed url="https://example.com/video" %}\n\n{% embed url=".gitbook/assets/deck.pdf" %}\nDeck\n{% endembed %}\n',
      'guide/usage.md':
        '# Usage\n\n{% content-ref url="../README.md" %}\n[README.md](../README.md)\n{% endcontent-ref %}\n',
      '.gitbook/assets/deck.pdf': 'PDF',
    };
    const read = readRepo(repo(files), freshIds);
    const [home, usage] = read.pages as [RepoPage, RepoPage];
    const deck = read.files[0]!;
    expect(home.markdown).toContain(`{% content-ref url="/pages/${usage.id}" %}`);
    expect(home.markdown).toContain(`[usage.md](/pages/${usage.id})`);
    expect(home.markdown).toContain('{% embed url="https://example.com/video" %}');
    expect(home.markdown).toContain(`{% embed url="gitbook-file:${deck.id}" %}`);
    expect(usage.markdown).toContain(`{% content-ref url="/pages/${home.id}" %}`);
    const out = repoFilesOf(read);
    const homeOut = dec.decode(out.get('README.md')!);
    // Exported in Quire's layout (the page at `usage.md`): the tags follow it.
    expect(homeOut).toContain('{% content-ref url="usage.md" %}');
    expect(homeOut).toContain('{% embed url=".gitbook/assets/deck.pdf" %}');
    expect(dec.decode(out.get('usage.md')!)).toContain('{% content-ref url="README.md" %}');
  });

  it('reads .gitbook/includes/ into reusable contents and writes them back, includes relative to each page', () => {
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Install](guides/install.md)\n',
      'README.md': '# Home\n\n{% include ".gitbook/includes/support-hint.md" %}\n',
      'guides/install.md':
        '# Install\n\nFirst.\n\n{% include "../.gitbook/includes/support-hint.md" %}\n\n{% include "../.gitbook/includes/untitled (1).md" %}\n',
      '.gitbook/includes/support-hint.md':
        '---\ntitle: Support hint\n---\n\n{% hint style="info" %}\nAsk us in the [install guide](../../guides/install.md#help) ![](../assets/logo.png).\n{% endhint %}\n\n## Contact\n\nMail us.\n',
      '.gitbook/includes/untitled (1).md': "---\ntitle: 'Tabs: a, b'\n---\n\nPlain text.\n",
      '.gitbook/assets/logo.png': 'PNG',
    };
    const read = readRepo(repo(files), { ...freshIds, reusable: () => `r${++n}` });
    const [home, install] = read.pages as [RepoPage, RepoPage];
    const [hint, tabs] = read.reusableContents!;
    const logo = read.files[0]!;
    expect([hint!.title, tabs!.title]).toEqual(['Support hint', 'Tabs: a, b']);
    // the include's path is the reusable content's id, whatever folder the page is in
    expect(home.markdown).toContain(`{% include "${hint!.id}" %}`);
    expect(install.markdown).toContain(`{% include "${hint!.id}" %}\n\n{% include "${tabs!.id}" %}`);
    // its links are relative to its own file; its headings one level up, as a page's
    expect(hint!.markdown).toContain(`(/pages/${install.id}#help)`);
    expect(hint!.markdown).toContain(`(gitbook-file:${logo.id})`);
    expect(hint!.markdown).toContain('\n# Contact\n');
    expect(read.paths.get(hint!.id)).toBe('.gitbook/includes/support-hint.md');
    const out = repoFilesOf({ ...read, knownPaths: read.paths });
    expect(Object.fromEntries([...out].map(([p, b]) => [p, dec.decode(b)]))).toEqual(files);
    // Without known paths (a new repository) each is named after its title (`-2` for a title taken), includes follow.
    const fresh = repoFilesOf({ ...read, reusableContents: [tabs!, { ...hint!, title: 'Tabs: a, b' }] });
    const named = ['.gitbook/includes/tabs-a-b.md', '.gitbook/includes/tabs-a-b-2.md'].map((p) =>
      dec.decode(fresh.get(p)!),
    );
    expect(named).toContain(files['.gitbook/includes/untitled (1).md']);
    expect(named.find((t) => t.includes('{% hint'))).toMatch(/^---\ntitle: 'Tabs: a, b'\n---\n\n\{% hint/);
    expect(dec.decode(fresh.get('install.md')!)).toMatch(/\{% include "\.gitbook\/includes\/tabs-a-b(-2)?\.md" %}/);
  });

  it('leaves an include whose file the repository lacks as it is, both ways', () => {
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'README.md': '# Home\n\n{% include ".gitbook/includes/gone.md" %}\n',
    };
    const read = readRepo(repo(files), freshIds);
    expect(read.reusableContents).toEqual([]);
    expect(read.pages[0]!.markdown).toContain('{% include ".gitbook/includes/gone.md" %}');
    expect(dec.decode(repoFilesOf(read).get('README.md')!)).toBe(files['README.md']);
  });

  it('infers the tree from folders without SUMMARY.md, under .gitbook.yaml root', () => {
    const read = readRepo(
      repo({
        '.gitbook.yaml': 'root: ./docs/\n',
        'docs/README.md': '# Home\n',
        'docs/a/README.md': '# A\n',
        'docs/a/b.md': '# B\n',
        'x.md': '# out\n',
      }),
      freshIds,
    );
    expect(read.pages.map((p) => [p.title, p.children.map((c) => c.title)])).toEqual([
      ['Home', []],
      ['A', ['B']],
    ]);
  });

  it('never follows a `../` path out of the repository', () => {
    const read = readRepo(
      repo({
        'SUMMARY.md': '* [Evil](../../etc/passwd.md)\n* [Ok](ok.md)\n',
        'ok.md': '# Ok\n\n[out](../../../secret.md) ![x](../../x.png)\n',
      }),
      freshIds,
    );
    expect(read.pages.map((p) => p.title)).toEqual(['Ok']);
    expect(read.pages[0]!.markdown).toContain('(../../../secret.md)');
    expect(read.files).toEqual([]);
  });

  it('refuses a root outside the repository and reads redirects', () => {
    expect(() => readGitbookYaml('root: ../../etc')).toThrow(/root: outside the repository/);
    expect(readGitbookYaml('redirects:\n  old/page: new/page.md\n').redirects).toEqual({ 'old/page': 'new/page.md' });
  });

  it('resolves redirects to pages under the root (sources cleaned, the unusable ones left out) and writes them back', () => {
    const read = readRepo(
      repo({
        '.gitbook.yaml':
          'root: ./docs/\nredirects:\n  help: support.md\n  /old/setup/: ./setup\n  "a b": support.md\n' +
          '  ../up: support.md\n  gone: missing.md\n  asset: .gitbook/assets/x.png\n  bad: 3\n',
        'docs/SUMMARY.md': '* [Home](README.md)\n* [Support](support.md)\n* [Setup](setup/README.md)\n',
        'docs/README.md': '# Home\n',
        'docs/support.md': '# Support\n',
        'docs/setup/README.md': '# Setup\n',
        'docs/.gitbook/assets/x.png': 'PNG',
        'support.md': '# Outside the root\n',
      }),
      freshIds,
    );
    const [, support, setup] = read.pages as [RepoPage, RepoPage, RepoPage];
    expect(read.pageRedirects).toEqual({ help: support.id, 'old/setup': setup.id });
    // Exported, they are `.gitbook.yaml`'s redirects to the pages' files; read again, the same.
    const files = repoFilesOf(read);
    expect(dec.decode(files.get('.gitbook.yaml'))).toBe('redirects:\n  help: support.md\n  old/setup: setup.md\n');
    const ids = new Map([...pagePathsOf(read.pages)].map(([id, path]) => [path, id]));
    expect(readRepo(files, { page: (p) => ids.get(p) ?? 'new', file: () => 'f' }).pageRedirects).toEqual(
      read.pageRedirects,
    );
    // A page that is gone takes its redirects with it; without redirects, no `.gitbook.yaml`.
    expect(repoFilesOf({ ...read, pageRedirects: { help: 'deleted-page' } }).has('.gitbook.yaml')).toBe(false);
  });
});

describe('where an export writes pages and files', () => {
  const page = (
    id: string,
    slug: string,
    children: RepoPage[] = [],
    kind: RepoPage['kind'] = 'document',
  ): RepoPage => ({
    id,
    kind,
    title: slug || id,
    slug,
    emoji: null,
    icon: null,
    description: null,
    hidden: false,
    href: null,
    markdown: '',
    children,
  });

  it("never writes two pages in one file, and puts a group's pages in its slug's folder", () => {
    const pages = [
      page('g1', 'get-started', [page('a', 'guides'), page('b', 'guides')], 'group'),
      page('g2', 'build', [page('c', 'guides', [page('d', 'install')])], 'group'),
      page('e', 'summary'),
    ];
    expect(Object.fromEntries(pagePathsOf(pages))).toEqual({
      a: 'get-started/guides.md',
      b: 'get-started/guides-2.md',
      c: 'build/guides/README.md',
      d: 'build/guides/install.md',
      e: 'summary-2.md', // SUMMARY.md is the table of contents
    });
  });

  it('keeps the paths a sync recorded (knownPathsOf), new pages beside their parent', () => {
    const pages = [page('g1', 'get-started', [page('a', 'quickstart', [page('n', 'new')])], 'group')];
    const known = knownPathsOf(
      {
        'docs/quickstart/index-page.md': { page: 'a', oid: 'x' },
        'docs/images/logo@2x.png': { file: 'f1', oid: 'y' },
        '#group:Get started:': { page: 'g1', oid: '' },
        'elsewhere/x.md': { page: 'z', oid: 'z' },
      },
      'docs/',
    );
    expect(Object.fromEntries(known)).toEqual({ a: 'quickstart/index-page.md', f1: 'images/logo@2x.png' });
    expect(Object.fromEntries(pagePathsOf(pages, known))).toEqual({
      a: 'quickstart/index-page.md',
      n: 'quickstart/index-page/new.md',
    });
    const files = [{ id: 'f1', name: 'logo@2x.png', bytes: new Uint8Array() }];
    expect(Object.fromEntries(filePathsOf(files, known))).toEqual({ f1: 'images/logo@2x.png' });
  });
});

/**
 * Small spaces: a tree of document pages with titles, flags and bodies linking to each other and to files, and
 * reusable contents (linking to pages) that pages include.
 */
const titleArb = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,12}[A-Za-z0-9]$/);
const spaceArb = fc
  .tuple(
    fc.array(
      fc.record({
        title: titleArb,
        hidden: fc.boolean(),
        description: fc.option(titleArb, { nil: null }),
        parent: fc.nat(),
        words: titleArb,
        link: fc.nat(),
        include: fc.nat(),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    fc.array(fc.record({ title: titleArb, words: titleArb, link: fc.nat() }), { maxLength: 3 }),
  )
  .map(([rows, reusable]) => {
    const pages: RepoPage[] = rows.map((r, i) => ({
      id: `id${i}`,
      kind: 'document',
      title: r.title,
      slug: `page-${i}`,
      emoji: null,
      icon: null,
      description: r.description,
      hidden: r.hidden,
      href: null,
      markdown: '',
      children: [],
    }));
    const top: RepoPage[] = [];
    rows.forEach((r, i) => (i === 0 ? top : r.parent % 2 ? pages[r.parent % i]!.children : top).push(pages[i]!));
    rows.forEach((r, i) => {
      const include = reusable.length && r.include % 2 ? `\n\n{% include "rc${r.include % reusable.length}" %}` : '';
      pages[i]!.markdown = normalizeMarkdown(
        `${r.words}, see [there](/pages/id${r.link % rows.length}) and ![img](gitbook-file:file1).${include}\n`,
      );
    });
    const reusableContents = reusable.map((r, i) => ({
      id: `rc${i}`,
      title: r.title,
      markdown: normalizeMarkdown(`${r.words}, see [there](/pages/id${r.link % rows.length}).\n`),
    }));
    const files = [{ id: 'file1', name: 'image.png', bytes: enc.encode('PNG') }];
    return { pages: top, files, reusableContents } satisfies RepoContent;
  });

const shape = (pages: RepoPage[], idMap: (id: string) => string): unknown =>
  pages.map((p) => ({
    ...p,
    id: idMap(p.id),
    markdown: normalizeMarkdown(p.markdown).replace(/id\d+|p\d+|f\d+/g, (m) => idMap(m)),
    children: shape(p.children, idMap),
  }));

describe('round trip', () => {
  it('export then import gives the same tree, order, titles and documents (ids by path)', () => {
    fc.assert(
      fc.property(spaceArb, (content) => {
        const files = repoFilesOf(content);
        // Ids by path: the importer is told the id each path had when it was exported.
        const byPath = new Map([...pagePathsOf(content.pages)].map(([id, path]) => [path, id]));
        const rcByPath = new Map([...reusablePathsOf(content.reusableContents)].map(([id, path]) => [path, id]));
        const read = readRepo(files, {
          page: (p) => byPath.get(p) ?? 'new',
          file: () => 'file1',
          reusable: (p) => rcByPath.get(p) ?? 'new',
        });
        expect(shape(read.pages, (x) => x)).toEqual(shape(content.pages, (x) => x));
        const sorted = (list: RepoContent['reusableContents']) =>
          [...(list ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(sorted(read.reusableContents)).toEqual(sorted(content.reusableContents));
        expect(read.files.map((f) => [f.id, f.name, dec.decode(f.bytes)])).toEqual([['file1', 'image.png', 'PNG']]);
        // Import then export: the same files.
        const again = repoFilesOf(read);
        expect([...again].map(([k, v]) => [k, dec.decode(v)]).sort()).toEqual(
          [...files].map(([k, v]) => [k, dec.decode(v)]).sort(),
        );
      }),
      { numRuns: 25 },
    );
  });
});
