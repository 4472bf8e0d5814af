import { describe, expect, it } from 'vitest';
import { documentHeadings, documentSections, documentText } from './index.ts';

describe('documentHeadings', () => {
  it('lists every heading in reading order with its GitHub anchor, title and depth', () => {
    const markdown = [
      '# Getting Started',
      'Intro',
      '## Install `quire`',
      '#### Deep [link](u)',
      '## Install `quire`',
      '> ### Quoted',
      '- ## In a list',
      '{% hint style="info" %}\n### In a hint\n{% endhint %}',
      '## Ünïcode & “quotes”',
    ].join('\n\n');
    expect(documentHeadings(markdown)).toEqual([
      { id: 'getting-started', title: 'Getting Started', depth: 1 },
      { id: 'install-quire', title: 'Install quire', depth: 2 },
      { id: 'deep-link', title: 'Deep link', depth: 3 },
      { id: 'install-quire-1', title: 'Install quire', depth: 2 },
      { id: 'quoted', title: 'Quoted', depth: 3 },
      { id: 'in-a-list', title: 'In a list', depth: 2 },
      { id: 'in-a-hint', title: 'In a hint', depth: 3 },
      { id: 'ünïcode--quotes', title: 'Ünïcode & “quotes”', depth: 2 },
    ]);
  });

  it('is empty without headings', () => {
    expect(documentHeadings('just text')).toEqual([]);
  });
});

describe('documentText', () => {
  it('gives the plain text: no markup, link targets left out, alt texts and captions in, table cells tab-separated', () => {
    const markdown = [
      '# Title',
      'Some **bold** and [a link](https://x.io) and `code`.\nWrapped.',
      '- one\n- two\n  1. nested',
      '```js\nconst a = 1;\n```',
      '> quoted',
      '{% hint style="warning" %}\nCareful\n{% endhint %}',
      '| Name | Size |\n|---|---|\n| a | 1 |',
      '![A diagram](gitbook-file:d1 "The flow")',
      '---',
    ].join('\n\n');
    expect(documentText(markdown)).toBe(
      [
        'Title',
        'Some bold and a link and code. Wrapped.',
        'one',
        'two',
        'nested',
        'const a = 1;',
        'quoted',
        'Careful',
        'Name\tSize',
        'a\t1',
        'A diagram The flow',
      ].join('\n'),
    );
  });

  it('is empty for an empty document', () => {
    expect(documentText('')).toBe('');
  });
});

describe('documentText of GitBook blocks', () => {
  it('includes tab titles, footnote bodies, embed URLs, summaries, steps, columns and cards', () => {
    const markdown = [
      '# Guide',
      'Read this[^1].',
      '{% tabs %}\n{% tab title="macOS" %}\nbrew install\n{% endtab %}\n{% tab title="Linux" %}\napt install\n' +
        '{% endtab %}\n{% endtabs %}',
      '{% embed url="https://www.youtube.com/watch?v=xyz" %}',
      '{% content-ref url="https://example.com/ref" %}\n[https://example.com/ref](https://example.com/ref)\n' +
        '{% endcontent-ref %}',
      '<details>\n\n<summary>More options</summary>\n\nHidden body.\n\n</details>',
      '{% stepper %}\n{% step %}\n### Step one\n\nDo it.\n{% endstep %}\n{% endstepper %}',
      '{% columns %}\n{% column %}\nLeft.\n{% endcolumn %}\n{% column %}\nRight.\n{% endcolumn %}\n{% endcolumns %}',
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th>' +
        '</tr></thead><tbody><tr><td><strong>Card one</strong> text</td>' +
        '<td><a href="https://example.com/one">https://example.com/one</a></td></tr></tbody></table>',
      '[^1]: The footnote text.',
    ].join('\n\n');
    expect(documentText(markdown).split('\n')).toEqual([
      'Guide',
      'Read this.',
      'The footnote text.',
      'macOS',
      'brew install',
      'Linux',
      'apt install',
      'https://www.youtube.com/watch?v=xyz',
      'https://example.com/ref',
      'More options',
      'Hidden body.',
      'Step one',
      'Do it.',
      'Left.',
      'Right.',
      'Card one text',
    ]);
    expect(documentSections(markdown).map((s) => s.heading?.title ?? null)).toEqual(['Guide', 'Step one']);
    expect(documentSections(markdown)[0]?.text).toContain('The footnote text.\nmacOS');
  });
});

describe('documentSections', () => {
  it('splits the text at every heading (nested ones too), the text before the first heading first', () => {
    const markdown = [
      'Intro **text**.',
      '# Getting Started',
      'Install it.\nThen run it.',
      '## Install `quire`',
      '- one\n- two',
      '> ### Quoted',
      '> inside',
      '## Empty',
      '## Install `quire`',
      '```sh\nnpm ci\n```',
    ].join('\n\n');
    expect(documentSections(markdown)).toEqual([
      { heading: null, text: 'Intro text.' },
      { heading: { id: 'getting-started', title: 'Getting Started', depth: 1 }, text: 'Install it. Then run it.' },
      { heading: { id: 'install-quire', title: 'Install quire', depth: 2 }, text: 'one\ntwo' },
      { heading: { id: 'quoted', title: 'Quoted', depth: 3 }, text: 'inside' },
      { heading: { id: 'empty', title: 'Empty', depth: 2 }, text: '' },
      { heading: { id: 'install-quire-1', title: 'Install quire', depth: 2 }, text: 'npm ci' },
    ]);
  });

  it('has no section for an empty document, and one without heading for text alone', () => {
    expect(documentSections('')).toEqual([]);
    expect(documentSections('just text')).toEqual([{ heading: null, text: 'just text' }]);
  });
});
