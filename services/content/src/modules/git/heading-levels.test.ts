import { describe, expect, it } from 'vitest';
import { markdownToDocument, normalizeMarkdown } from '@quire/document/model';
import { headingsFromGitbook, headingsToGitbook } from './heading-levels.ts';

/** A page body as GitBook's Git Sync writes it (its title `#` taken off as the page's). */
const gitbook = [
  '## Install <a href="#install" id="install"></a>',
  '',
  '### On Linux',
  '',
  '#### From a package',
  '',
  '{% hint style="info" %}',
  '### Inside a hint',
  '{% endhint %}',
  '',
  '* item',
  '',
  '  #### In a list',
  '',
  '```bash',
  '## a comment, not a heading',
  '```',
  '',
  '> ### Quoted',
  '',
].join('\n');

describe("GitBook's heading levels at the Git boundary", () => {
  it('reads ## ### #### as heading-1, -2, -3, and writes them back byte for byte', () => {
    const stored = normalizeMarkdown(headingsFromGitbook(gitbook));
    const types = JSON.stringify(markdownToDocument(stored)).match(/"type":"heading-\d"/g);
    expect(types).toEqual([
      '"type":"heading-1"',
      '"type":"heading-2"',
      '"type":"heading-3"',
      '"type":"heading-2"',
      '"type":"heading-3"',
      '"type":"heading-2"',
    ]);
    expect(stored).toContain('```bash\n## a comment, not a heading\n```');
    expect(headingsToGitbook(stored)).toBe(gitbook);
  });

  it('normalises what GitBook has no level for: # inside a page, ##### and ######, setext', () => {
    const stored = normalizeMarkdown(
      headingsFromGitbook('# One\n\n##### Five\n\n###### Six\n\nTwo\n---\n\nOne\n===\n'),
    );
    expect(stored).toBe('# One\n\n### Five\n\n### Six\n\n# Two\n\n# One\n');
    expect(headingsToGitbook(stored)).toBe('## One\n\n#### Five\n\n#### Six\n\n## Two\n\n## One\n');
    // stable from then on
    expect(headingsToGitbook(normalizeMarkdown(headingsFromGitbook(headingsToGitbook(stored))))).toBe(
      headingsToGitbook(stored),
    );
  });

  it("moves GitBook's aligned headings (HTML) the same way", () => {
    const gitbookHtml = '<h2 align="center">Centered</h2>\n\n<h4 align="right">Small</h4>\n';
    const stored = normalizeMarkdown(headingsFromGitbook(gitbookHtml));
    expect(stored).toBe('<h1 align="center">Centered</h1>\n\n<h3 align="right">Small</h3>\n');
    expect(markdownToDocument(stored).nodes.map((n) => [n.type, n.data])).toEqual([
      ['heading-1', { align: 'center' }],
      ['heading-3', { align: 'end' }],
    ]);
    expect(headingsToGitbook(stored)).toBe(gitbookHtml);
  });

  it('leaves a page without headings as it is (no parse)', () => {
    const text = 'Just text, a # sign and a rule:\n\n***\n';
    expect(headingsFromGitbook(text)).toBe(text);
    expect(headingsToGitbook(text)).toBe(text);
  });
});
