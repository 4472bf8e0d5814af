// @vitest-environment happy-dom
import { doc, file, heading, link, p, para, text, url } from '@quire/document/testing';
import { describe, expect, it } from 'vitest';
import type { RevisionFile, RevisionPages } from '../api/endpoints.ts';
import { pageIndex, relativePath, renderPageHtml, toNodes } from './page.ts';

const BASE = '/o/acme/s/sp1/~/changes/3';
const pages = [
  { id: 'p1', type: 'document', title: 'Intro', path: 'intro', pages: [] },
  {
    id: 'p2',
    type: 'document',
    title: 'Getting started',
    path: 'getting-started',
    pages: [{ id: 'p3', type: 'document', title: 'Installation', path: 'getting-started/installation', pages: [] }],
  },
  { id: 'l1', type: 'link', title: 'Elsewhere', href: 'https://example.com' },
] as unknown as RevisionPages['pages'];
const files = [
  {
    id: 'f1',
    name: 'diagram.png',
    contentType: 'image/png',
    size: 2048,
    downloadURL: 'https://docs.example.com/v1/downloads/f1?sig=abc',
  },
] as RevisionFile[];

describe('the published renderer with the app as its site', () => {
  it('indexes the revision at every level, and resolves relative markdown links as the site does', () => {
    const { byId, byPath } = pageIndex(pages);
    expect([...byId.keys()]).toEqual(['p1', 'p2', 'p3', 'l1']);
    expect(relativePath(byPath, 'getting-started', 'installation.md#a')).toBe('getting-started/installation#a');
    expect(relativePath(byPath, 'getting-started/installation', '../intro.md')).toBe('intro');
    expect(relativePath(byPath, 'intro', 'nowhere.md')).toBeNull();
  });

  it("links pages to the app's URLs, files to their download path on the app's origin", async () => {
    const html = await renderPageHtml({
      document: doc(
        heading(1, 'Start here'),
        p(
          text('See '),
          link(url('/pages/p3#setup'), text('the installation')),
          text(', '),
          link(url('getting-started.md'), text('the guide')),
          text(' and '),
          link(file('f1'), text('the picture')),
        ),
        p(link({ kind: 'page', page: 'p2', space: 'sp2' } as never, text('another space'))),
      ),
      path: 'intro',
      pages,
      files,
      base: BASE,
    });
    expect(html).toContain('<h2 id="start-here"');
    expect(html).toContain(`<a href="${BASE}/getting-started/installation#setup">the installation</a>`);
    expect(html).toContain(`<a href="${BASE}/getting-started">the guide</a>`);
    expect(html).toContain('<a href="/v1/downloads/f1?sig=abc">the picture</a>');
    expect(html).toContain('<a href="/o/acme/s/sp2">another space</a>');
  });

  it('hides a block whose condition needs a reader the app does not have (an anonymous reader, as on a public site)', async () => {
    const cond = {
      object: 'block',
      type: 'if',
      data: { condition: 'visitor.claims.plan == "pro"' },
      nodes: [para('Pro')],
    };
    const html = await renderPageHtml({
      document: doc(para('All'), cond as never),
      path: 'intro',
      pages,
      files,
      base: BASE,
    });
    expect(html).toContain('All');
    expect(html).not.toContain('Pro');
  });

  it('keeps inline styles out of the parsed markup and sets them through the CSSOM', () => {
    const nodes = toNodes(
      '<pre class="shiki" style="color:#24292e;--shiki-dark:#e1e4e8"><code><span style="color:#d73a49">const</span></code></pre>' +
        '<p title="a style=&quot;x&quot;">style="not an attribute"</p><p data-quire-style="color:red">forged</p>',
    );
    const host = document.createElement('div');
    host.append(nodes);
    const pre = host.querySelector('pre')!;
    expect(pre.style.getPropertyValue('--shiki-dark')).toBe('#e1e4e8');
    expect(host.querySelector('span')!.style.color).not.toBe('');
    expect([...host.querySelectorAll('*')].flatMap((e) => e.getAttributeNames())).not.toContain(
      expect.stringMatching(/^data-style-/),
    );
    // an attribute of the content named like the renamed ones stays an attribute, not a style
    const forged = host.querySelectorAll('p')[1]!;
    expect(forged.getAttribute('data-quire-style')).toBe('color:red');
    expect(forged.style.color).toBe('');
    // a quote in a value or a text is escaped or outside a tag: left as it is
    expect(host.querySelectorAll('p')[0]!.getAttribute('title')).toBe('a style="x"');
    expect(host.querySelectorAll('p')[0]!.textContent).toBe('style="not an attribute"');
  });
});
