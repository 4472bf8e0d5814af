import { describe, expect, it } from 'vitest';
import { conflictMarkdown, conflictsIn, mergeText } from '@quire/document/model';
import { edit, MarkdownStore, page, tree, withPages } from './merge.fixtures.ts';
import { mergeTrees } from './merge-trees.ts';
import type { TreeSnapshot } from './tree.ts';

const LABELS = { ours: 'main', theirs: 'change request #3' };
const merge = (base: TreeSnapshot, ours: TreeSnapshot, theirs: TreeSnapshot, store: MarkdownStore) =>
  mergeTrees({ base, ours, theirs, loadMarkdown: store.load, labels: LABELS }, store.hash);

const GUIDE = ['# Guide', '', 'Install with npm.', '', 'Configure the token.', '', 'Run it.', ''].join('\n');

function setup() {
  const store = new MarkdownStore();
  const main0 = tree(
    page('guide', { documentHash: store.put(GUIDE), order: 'a0' }),
    page('faq', { documentHash: store.put('Questions?\n'), order: 'a1' }),
  );
  /** main0 with one sentence of the guide replaced. */
  const editGuide = (sentence: string, by: string) =>
    edit(main0, 'guide', { documentHash: store.put(GUIDE.replace(sentence, by)) });
  return { store, main0, editGuide };
}

describe('mergeText (node-diff3)', () => {
  it('takes the only side that changed, merges changes to different paragraphs, and marks changes to the same line', () => {
    const labels = { ours: 'ours', theirs: 'theirs' };
    expect(mergeText('a\n', 'a\n', 'b\n', labels)).toEqual({ text: 'b\n', conflict: false });
    expect(mergeText('a\n', 'b\n', 'a\n', labels)).toEqual({ text: 'b\n', conflict: false });
    expect(mergeText('a\n\nb\n', 'A\n\nb\n', 'a\n\nB\n', labels)).toEqual({ text: 'A\n\nB\n', conflict: false });
    expect(mergeText('a\nb\n', 'x\nb\n', 'x\nb\n', labels)).toEqual({ text: 'x\nb\n', conflict: false });
    expect(mergeText('a\nkeep\n', 'b\nkeep\n', 'c\nkeep\n', labels)).toEqual({
      text: '<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\nkeep\n',
      conflict: true,
    });
  });

  it('merges two-way from an empty base', () => {
    expect(mergeText('', 'same\n', 'same\n', LABELS)).toEqual({ text: 'same\n', conflict: false });
    const r = mergeText('', 'one\n', 'two\n', LABELS);
    expect(r.conflict).toBe(true);
    expect(r.text).toContain('one');
    expect(r.text).toContain('two');
  });
});

describe('mergeTrees: documents', () => {
  it('takes the document of the only side that changed it, loading no markdown', async () => {
    const { store, main0, editGuide } = setup();
    const edited = editGuide('npm', 'pnpm');
    for (const [ours, theirs] of [
      [main0, edited],
      [edited, main0],
    ] as const) {
      const r = await merge(main0, ours, theirs, store);
      expect(r.tree.get('guide')!.documentHash).toBe(edited.get('guide')!.documentHash);
      expect(r.documents.size).toBe(0);
    }
    expect(store.loads).toEqual([]);
  });

  it('merges two change requests that edit different paragraphs of one page, one after the other', async () => {
    const { store, main0, editGuide } = setup();
    const cr1 = editGuide('Install with npm.', 'Install with npm or pnpm.');
    const cr2 = editGuide('Run it.', 'Run it with `quire start`.');

    const first = await merge(main0, main0, cr1, store); // merge CR 1 into main
    expect(first.conflicts).toEqual([]);
    const main1 = first.tree;
    expect(store.text(main1.get('guide')!.documentHash)).toBe(store.text(cr1.get('guide')!.documentHash));

    store.loads.length = 0;
    const second = await merge(main0, main1, cr2, store); // CR 2, based on main0, into the new main
    expect(second.conflicts).toEqual([]);
    const hash = second.tree.get('guide')!.documentHash!;
    expect(second.documents.get(hash)).toBe(
      [
        '# Guide',
        '',
        'Install with npm or pnpm.',
        '',
        'Configure the token.',
        '',
        'Run it with `quire start`.',
        '',
      ].join('\n'),
    );
    // Only the page changed on both sides was read: base, ours and theirs of `guide`.
    expect(new Set(store.loads)).toEqual(new Set([main0, main1, cr2].map((t) => t.get('guide')!.documentHash)));
    store.keep(second.documents);
    expect(store.text(hash)).toContain('pnpm');
  });

  it('keeps both paragraphs in a conflict block when both sides change the same one, and reports the page', async () => {
    const { store, main0, editGuide } = setup();
    const main1 = editGuide('Configure the token.', 'Configure the API token.');
    const cr = editGuide('Configure the token.', 'Set QUIRE_TOKEN.');
    const r = await merge(main0, main1, cr, store);
    expect(r.conflicts).toEqual([{ pageId: 'guide', fields: ['document'] }]);
    const text = r.documents.get(r.tree.get('guide')!.documentHash!);
    expect(text).toBe(
      [
        '# Guide',
        '',
        'Install with npm.',
        '',
        conflictMarkdown([
          { title: 'main', markdown: 'Configure the API token.' },
          { title: 'change request #3', markdown: 'Set QUIRE_TOKEN.' },
        ]).trimEnd(),
        '',
        'Run it.',
        '',
      ].join('\n'),
    );
    expect(conflictsIn(text!)).toBe(1);
    expect(text).not.toContain('<<<<<<<');
    expect(r.tree.get('guide')!.documentHash).toBe(store.hash(text!));
  });

  it('merges a document added on both sides with the same page id two-way', async () => {
    const { store, main0 } = setup();
    const same = await merge(
      main0,
      withPages(main0, page('new', { documentHash: store.put('Hello\n'), order: 'a2' })),
      withPages(main0, page('new', { documentHash: store.put('Hello\n'), order: 'a2' })),
      store,
    );
    expect(store.text(same.tree.get('new')!.documentHash)).toBe('Hello\n');
    expect(same.conflicts).toEqual([]);

    const ours = withPages(main0, page('new', { documentHash: store.put('Hello from main\n'), order: 'a2' }));
    const theirs = withPages(
      main0,
      page('new', { documentHash: store.put('Hello from the change request\n'), order: 'a2' }),
    );
    const r = await merge(main0, ours, theirs, store);
    const text = r.documents.get(r.tree.get('new')!.documentHash!)!;
    expect(text).toContain('Hello from main');
    expect(text).toContain('Hello from the change request');
    expect(conflictsIn(text)).toBe(1);
    expect(r.conflicts).toEqual([{ pageId: 'new', fields: ['document'] }]);
  });

  it('keeps a page a document when one side made it a group and the other edited its text', async () => {
    const { store, main0 } = setup();
    const ours = edit(main0, 'faq', { kind: 'group', documentHash: null });
    const theirs = edit(main0, 'faq', { documentHash: store.put('Questions?\n\nAsk on the forum.\n') });
    const r = await merge(main0, ours, theirs, store);
    const faq = r.tree.get('faq')!;
    expect(faq.kind).toBe('document');
    expect(r.documents.get(faq.documentHash!)).toContain('Ask on the forum.');
    // Block by block: ours removed the old paragraph, theirs added one after it; both apply.
    expect(r.documents.get(faq.documentHash!)).toBe('Ask on the forum.\n');
    expect(r.conflicts).toEqual([{ pageId: 'faq', fields: ['kind'] }]);
  });

  it('uses an existing hash when the merged text equals one side (both sides made the same edit plus one more)', async () => {
    const { store, main0 } = setup();
    const a = GUIDE.replace('Run it.', 'Run it now.');
    const ours = edit(main0, 'guide', { documentHash: store.put(a) });
    const theirs = edit(main0, 'guide', { documentHash: store.put(a.replace('# Guide', '# The guide')) });
    const r = await merge(main0, ours, theirs, store);
    expect(r.tree.get('guide')!.documentHash).toBe(theirs.get('guide')!.documentHash);
    expect(r.documents.size).toBe(0);
  });
});
