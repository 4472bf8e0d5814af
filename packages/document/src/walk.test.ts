import { describe, expect, it } from 'vitest';
import { markdownToDocument } from './index.ts';
import { walk, type DocumentNode } from './walk.ts';

const typeOf = (node: DocumentNode): string => ('type' in node && node.type ? node.type : node.object);

describe('walk', () => {
  it('visits blocks, inlines, texts and fragments in reading order', () => {
    const document = markdownToDocument(
      '# Title\n\nSee [the guide](https://example.com).\n\n<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n',
    );
    const seen: string[] = [];
    const fragments: string[] = [];
    walk(document, (node, _parent, depth) => {
      seen.push(`${depth}:${typeOf(node)}`);
      if (node.object === 'fragment') fragments.push(`${depth}:${node.fragment}`);
    });
    expect(seen.slice(0, 4)).toEqual(['0:document', '1:heading-1', '2:text', '1:paragraph']);
    expect(seen).toContain('3:text'); // the link's text, inside the paragraph
    expect(seen.filter((s) => s.endsWith(':expandable'))).toEqual(['1:expandable']);
    expect(fragments).toEqual(['2:expandable-title', '2:expandable-body']);
  });

  it('skips the children of a node when the visitor answers false', () => {
    const document = markdownToDocument('> quoted **bold**\n\nplain\n');
    const seen: string[] = [];
    walk(document, (node) => {
      seen.push(typeOf(node));
      return typeOf(node) !== 'blockquote';
    });
    expect(seen).toEqual(['document', 'blockquote', 'paragraph', 'text']);
  });

  it('walks a document nested deeper than the stack would allow', () => {
    let node: DocumentNode = { object: 'text', leaves: [{ object: 'leaf', text: 'deep', marks: [] }] };
    for (let i = 0; i < 20_000; i++)
      node = { object: 'block', type: 'blockquote', data: {}, nodes: [node] } as unknown as DocumentNode;
    let count = 0;
    walk(node, () => {
      count++;
    });
    expect(count).toBe(20_001);
  });
});
