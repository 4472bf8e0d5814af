import { describe, expect, it } from 'vitest';
import { markdownToDocument, normalizeMarkdown } from '@quire/document/model';
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
    expect(
      htmlToMarkdown(
        '<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
      ),
    ).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |');
    expect(htmlToMarkdown('<table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td>2<br>3</td></tr></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 | 2 3 |',
    );
    expect(htmlToMarkdown('<p><del>old</del> new</p>')).toBe('~old~ new');
    expect(
      normalizeMarkdown(
        htmlToMarkdown('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>'),
      ),
    ).toBe('* [x] done\n* [ ] todo\n');
  });

  it('never leaves raw HTML, and escapes what markdown would read (pipes included)', () => {
    const md = htmlToMarkdown(
      '<table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table><p>a | b * c [d]</p><div><span>plain</span></div>',
    );
    expect(md).not.toMatch(/<\/?(table|tr|td|div|span)/);
    expect(md).toContain('a \\| b \\* c \\[d\\]');
  });

  it('rewrites link and image URLs first (a null link keeps its text)', () => {
    const md = htmlToMarkdown(
      '<p><a href="https://acme.io/a">A</a> <a href="https://acme.io/gone">gone</a> <img src="https://acme.io/i.png" alt="I" title="Cap"></p>',
      {
        link: (href) => (href.endsWith('/a') ? './import-page-1.md#setup' : null),
        image: () => './import-file-1',
      },
    );
    expect(md).toBe('[A](./import-page-1.md#setup) gone ![I](./import-file-1 "Cap")');
  });
});

describe('htmlToMarkdown: GitBook blocks where the HTML has them', () => {
  it('turns <details> into an expandable (its summary as the title, "Details" without one)', () => {
    expect(
      htmlToMarkdown('<details><summary>More <b>info</b></summary><p>Hidden text</p><ul><li>a</li></ul></details>'),
    ).toBe('<details>\n\n<summary>More **info**</summary>\n\nHidden text\n\n-   a\n\n</details>');
    expect(htmlToMarkdown('<details><p>Body</p></details>')).toBe(
      '<details>\n\n<summary>Details</summary>\n\nBody\n\n</details>',
    );
  });

  it('turns notes into hints: admonitions, GitHub alerts, Docusaurus, callouts, role=note and asides', () => {
    const hint = (style: string, body: string) => `{% hint style="${style}" %}\n${body}\n{% endhint %}`;
    expect(
      htmlToMarkdown('<div class="admonition warning"><p class="admonition-title">Warning</p><p>Be careful.</p></div>'),
    ).toBe(hint('warning', 'Be careful.'));
    expect(
      htmlToMarkdown('<div class="admonition note"><p class="admonition-title">Before you start</p><p>Body.</p></div>'),
    ).toBe(hint('info', '**Before you start**\n\nBody.'));
    expect(
      htmlToMarkdown(
        '<div class="markdown-alert markdown-alert-tip"><p class="markdown-alert-title">Tip</p><p>Tip text</p></div>',
      ),
    ).toBe(hint('success', 'Tip text'));
    expect(
      htmlToMarkdown(
        '<div class="markdown-alert markdown-alert-caution"><p class="markdown-alert-title">Caution</p><p>Hot</p></div>',
      ),
    ).toBe(hint('warning', 'Hot'));
    expect(
      htmlToMarkdown(
        '<div class="theme-admonition theme-admonition-danger alert alert--danger admonition_x1"><div class="admonitionHeading_y2">danger</div><div class="admonitionContent_z3"><p>Stop.</p></div></div>',
      ),
    ).toBe(hint('danger', 'Stop.'));
    expect(htmlToMarkdown('<div role="note"><p>Plain note</p></div>')).toBe(hint('info', 'Plain note'));
    expect(htmlToMarkdown('<aside><p>An aside</p></aside><aside class="toc"><p>On this page</p></aside>')).toBe(
      hint('info', 'An aside'),
    );
    expect(htmlToMarkdown('<div class="admonition note"><p class="admonition-title">Note</p></div><p>After</p>')).toBe(
      'After',
    );
  });

  it('turns ARIA tab widgets and Material for MkDocs tabs into tabs (panels matched by aria-controls)', () => {
    const aria =
      '<div class="tabs"><div role="tablist"><span role="tab" aria-controls="p2">JS</span><span role="tab" aria-controls="p1">Py "3"</span></div>' +
      '<div role="tabpanel" id="p1"><p>python</p></div><div role="tabpanel" id="p2"><pre><code class="language-js">x()\n</code></pre></div></div>';
    expect(htmlToMarkdown(aria)).toBe(
      '{% tabs %}\n{% tab title="JS" %}\n```js\nx()\n```\n{% endtab %}\n\n{% tab title="Py \\"3\\"" %}\npython\n{% endtab %}\n{% endtabs %}',
    );
    const material =
      '<div class="tabbed-set"><div class="tabbed-labels"><label>C</label><label>C++</label></div>' +
      '<div class="tabbed-content"><div class="tabbed-block"><p>c</p></div><div class="tabbed-block"><p>cpp</p></div></div></div>';
    expect(htmlToMarkdown(material)).toBe(
      '{% tabs %}\n{% tab title="C" %}\nc\n{% endtab %}\n\n{% tab title="C++" %}\ncpp\n{% endtab %}\n{% endtabs %}',
    );
  });

  it('turns MathML with its TeX (KaTeX) into math, a block when displayed; MathML without TeX stays text', () => {
    const katex = (tex: string, display: boolean) =>
      `<span class="katex"><span class="katex-mathml"><math${display ? ' display="block"' : ''}><semantics><mi>x</mi><annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">drawn</span></span>`;
    expect(
      htmlToMarkdown(
        `<p>Inline ${katex('x^2', false)} math.</p><span class="katex-display">${katex('\\sum_i y_i', true)}</span>`,
      ),
    ).toBe('Inline $$x^2$$ math.\n\n$$\n\\sum_i y_i\n$$');
    expect(htmlToMarkdown('<p>So <math><mi>a</mi><mo>+</mo><mi>b</mi></math>.</p>')).toBe('So a+b.');
  });

  it('keeps <kbd>, <sub>, <sup> and highlights (<mark>) as GitBook writes them, and escapes text that would read as its syntax', () => {
    expect(
      htmlToMarkdown('<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark>hot</mark>.</p>'),
    ).toBe(
      'Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark style="background-color:yellow;">hot</mark>.',
    );
    expect(htmlToMarkdown('<p>Costs $5; write {% hint %} or &lt;details&gt; in text, a &lt; b.</p>')).toBe(
      'Costs \\$5; write \\{% hint %} or \\<details> in text, a < b.',
    );
  });

  it('keeps the title written above a code block (Material for MkDocs, Docusaurus) as GitBook’s code title', () => {
    const mkdocs =
      '<div class="highlight"><span class="filename">app.py</span><pre><code class="language-python">print(1)\n</code></pre></div>';
    expect(htmlToMarkdown(mkdocs)).toBe('{% code title="app.py" %}\n```python\nprint(1)\n```\n{% endcode %}');
    const docusaurus =
      '<div class="codeBlockContainer_a"><div class="codeBlockTitle_b">src/index.js</div><div class="codeBlockContent_c"><pre><code>run();\n</code></pre></div></div>';
    expect(htmlToMarkdown(docusaurus)).toBe('{% code title="src/index.js" %}\n```\nrun();\n```\n{% endcode %}');
    expect(htmlToMarkdown('<p class="filename">notes.txt</p><p>No code here.</p>')).toBe('notes.txt\n\nNo code here.');
  });

  it('finds tabs whose panels follow the tab list at the top of the content', () => {
    const html =
      '<div role="tablist"><span role="tab">A</span><span role="tab">B</span></div><div role="tabpanel"><p>a</p></div><div role="tabpanel"><p>b</p></div><p>After</p>';
    expect(htmlToMarkdown(html)).toBe(
      '{% tabs %}\n{% tab title="A" %}\na\n{% endtab %}\n\n{% tab title="B" %}\nb\n{% endtab %}\n{% endtabs %}\n\nAfter',
    );
  });

  it('writes what the document converter reads as GitBook’s blocks, nothing escaped', () => {
    const katex = (tex: string, display: boolean) =>
      `<span class="katex"><span class="katex-mathml"><math${display ? ' display="block"' : ''}><semantics><mi>x</mi><annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span></span>`;
    const html =
      '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Be careful.</p></div>' +
      '<details><summary>More <b>info</b></summary><p>Hidden text</p></details>' +
      '<div class="tabs"><div role="tablist"><span role="tab">A</span><span role="tab">B</span></div><div role="tabpanel"><p>a</p></div><div role="tabpanel"><p>b</p></div></div>' +
      `<p>Inline ${katex('x^2', false)}, <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark>hot</mark>.</p><span class="katex-display">${katex('\\sum y', true)}</span>` +
      '<figure><img src="https://acme.io/d.png" alt="D" title="The diagram"></figure>' +
      '<div class="highlight"><span class="filename">app.py</span><pre><code class="language-python">print(1)\n</code></pre></div>';
    const markdown = htmlToMarkdown(html);
    expect(normalizeMarkdown(markdown)).toContain('{% code title="app.py" %}\n```python\nprint(1)\n```\n{% endcode %}');
    const types = new Set<string>();
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(walk);
      if (n === null || typeof n !== 'object') return;
      const o = n as { object?: string; type?: string; marks?: { type: string }[] };
      if ((o.object === 'block' || o.object === 'inline') && o.type) types.add(o.type);
      for (const mark of o.marks ?? []) types.add(`mark:${mark.type}`);
      Object.values(o).forEach(walk);
    };
    walk(markdownToDocument(markdown));
    expect([...types]).toEqual(
      expect.arrayContaining([
        'code',
        'hint',
        'expandable',
        'tabs',
        'tabs-item',
        'inline-math',
        'math',
        'images',
        'mark:keyboard',
        'mark:subscript',
        'mark:superscript',
        'mark:color',
      ]),
    );
    const normal = normalizeMarkdown(markdown);
    for (const escaped of ['\\{%', '\\<details', '\\<summary', '\\$$', '\\<kbd', '\\<mark', '\\<sub'])
      expect(normal, escaped).not.toContain(escaped);
  });
});
