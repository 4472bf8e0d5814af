import { describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '../documents/index.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';

describe('htmlToMarkdown', () => {
  it('converts headings, emphasis, links, lists, quotes, code with its language and dividers', () => {
    const md = htmlToMarkdown(
      '<h2>Install</h2><p>Run <code>npm ci</code>, <strong>then</strong> <em>wait</em>; see <a href="https://acme.io/a" title="A">A</a>.</p>' +
        '<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol><li>first</li></ol><blockquote><p>Quoted</p></blockquote>' +
        '<pre><code class="language-js">const a = 1;\n</code></pre><hr><p>Line<br>break</p>',
    );
    expect(normalizeMarkdown(md)).toBe(
      normalizeMarkdown(
        '## Install\n\nRun `npm ci`, **then** _wait_; see [A](https://acme.io/a "A").\n\n- one\n- two\n  - nested\n\n1. first\n\n> Quoted\n\n```js\nconst a = 1;\n```\n\n---\n\nLine\\\nbreak\n',
      ),
    );
  });

  it('converts GFM: tables (a first row made header when there is none), strikethrough and task lists', () => {
    expect(htmlToMarkdown('<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>')).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |');
    expect(htmlToMarkdown('<table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td>2<br>3</td></tr></table>')).toBe('| A | B |\n| --- | --- |\n| 1 | 2 3 |');
    expect(htmlToMarkdown('<p><del>old</del> new</p>')).toBe('~old~ new');
    expect(normalizeMarkdown(htmlToMarkdown('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>'))).toBe('- [x] done\n- [ ] todo\n');
  });

  it('never leaves raw HTML, and escapes what markdown would read (pipes included)', () => {
    const md = htmlToMarkdown('<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table><p>a | b * c [d]</p><div><span>plain</span></div>');
    expect(md).not.toMatch(/<\/?(table|tr|td|div|span)/);
    expect(md).toContain('a \\| b \\* c \\[d\\]');
  });

  it('rewrites link and image URLs first (a null link keeps its text)', () => {
    const md = htmlToMarkdown('<p><a href="https://acme.io/a">A</a> <a href="https://acme.io/gone">gone</a> <img src="https://acme.io/i.png" alt="I" title="Cap"></p>', {
      link: (href) => (href.endsWith('/a') ? './import-page-1.md#setup' : null),
      image: () => './import-file-1',
    });
    expect(md).toBe('[A](./import-page-1.md#setup) gone ![I](./import-file-1 "Cap")');
  });
});
