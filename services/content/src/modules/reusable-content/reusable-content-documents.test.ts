import { describe, expect, it } from 'vitest';
import { includedIds, inlineReusableContents } from './reusable-content-documents.ts';

const para = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }],
});
const include = (id: string, space?: string) => ({
  object: 'block',
  type: 'reusable-content',
  data: { ref: { kind: 'reusable-content', reusableContent: id, ...(space ? { space } : {}) } },
  isVoid: true,
});
const doc = (...nodes: object[]) => ({ object: 'document', data: {}, nodes });
const texts = (d: object) => [...JSON.stringify(d).matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]);

describe('inlineReusableContents', () => {
  const library = new Map<string, object>([
    ['a', doc(para('A1'), include('b'))],
    ['b', doc(para('B1'))],
    ['loop', doc(para('L'), include('loop'))],
  ]);
  const resolve = (id: string) => library.get(id);

  it('replaces each block including a reusable content of the space by its blocks, nested ones too, in place', () => {
    const page = doc(para('before'), { object: 'block', type: 'hint', nodes: [include('a')] }, para('after'));
    expect(includedIds(page, 's1')).toEqual(new Set(['a']));
    const out = inlineReusableContents(page, 's1', resolve);
    expect(texts(out)).toEqual(['before', 'A1', 'B1', 'after']);
    expect(JSON.stringify(out)).not.toContain('reusable-content');
    // The document given is left as it was (cached documents are frozen).
    expect(JSON.stringify(page)).toContain('reusable-content');
  });

  it("keeps a block whose reusable content is unknown or another space's; a cycle stops", () => {
    const page = doc(include('gone'), include('a', 's2'), include('loop'));
    const out = inlineReusableContents(page, 's1', resolve);
    expect((out.nodes[0] as { type: string }).type).toBe('reusable-content');
    expect((out.nodes[1] as { type: string }).type).toBe('reusable-content');
    expect(texts(out)).toEqual(['L']);
    expect(out.nodes.length).toBe(4);
  });

  it('answers a document without includes as it is', () => {
    const page = doc(para('x'));
    expect(inlineReusableContents(page, 's1', resolve)).toBe(page);
  });
});
