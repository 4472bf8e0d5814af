import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conflictMarkdown, conflictsIn, markdownToDocument, normalizeMarkdown } from '../index.ts';
import { mergeBlocks } from './block-merge.ts';

const LABELS = { ours: 'main', theirs: 'change request #3' };
const merge = (base: string, ours: string, theirs: string) => mergeBlocks(base, ours, theirs, LABELS);
const doc = (...blocks: string[]) => `${blocks.join('\n\n')}\n`;
const conflict = (ours: string[], theirs: string[]) =>
  conflictMarkdown([
    { title: 'main', markdown: doc(...ours) },
    { title: 'change request #3', markdown: doc(...theirs) },
  ]).trimEnd();

const TABLE = ['| Name | Port |', '| - | - |', '| web | 80 |', '| api | 8080 |', '| db | 5432 |'];
const table = (...rows: [string, string][]) =>
  [TABLE[0], TABLE[1], ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join('\n');
const CODE = ['```js', 'const host = "localhost";', 'const port = 80;', '', 'listen(host, port);', '```'].join('\n');

describe('mergeBlocks', () => {
  it('takes the only side that changed', () => {
    const base = doc('One.', 'Two.');
    expect(merge(base, base, doc('One.', 'Two!'))).toEqual({ text: doc('One.', 'Two!'), conflicts: 0 });
    expect(merge(base, doc('One!', 'Two.'), base)).toEqual({ text: doc('One!', 'Two.'), conflicts: 0 });
  });

  it('merges edits to different blocks, neighbours included', () => {
    const base = doc('# Title', 'First.', 'Second.', 'Third.');
    const r = merge(base, doc('# Title', 'First!', 'Second.', 'Third.'), doc('# Title', 'First.', 'Second!', 'Third.'));
    expect(r).toEqual({ text: doc('# Title', 'First!', 'Second!', 'Third.'), conflicts: 0 });
  });

  it('puts the whole paragraph of each side in a conflict block when both change it, and only that one', () => {
    const base = doc('Keep.', 'Change me.', 'Also keep.');
    const r = merge(
      base,
      doc('Keep.', 'Changed by main.', 'Also keep.'),
      doc('Keep.', 'Changed by the CR.', 'Also keep!'),
    );
    expect(r.conflicts).toBe(1);
    expect(r.text).toBe(doc('Keep.', conflict(['Changed by main.'], ['Changed by the CR.']), 'Also keep!'));
    expect(conflictsIn(r.text)).toBe(1);
  });

  it('merges edits to rows of one table that are not neighbours, line by line', () => {
    const base = doc('Ports:', table(['web', '80'], ['api', '8080'], ['db', '5432']));
    const ours = doc('Ports:', table(['web', '8000'], ['api', '8080'], ['db', '5432']));
    const theirs = doc('Ports:', table(['web', '80'], ['api', '8080'], ['db', '5433']));
    expect(merge(base, ours, theirs)).toEqual({
      text: doc('Ports:', table(['web', '8000'], ['api', '8080'], ['db', '5433'])),
      conflicts: 0,
    });
  });

  it('widens a conflict inside a table to the whole table of each side', () => {
    const base = doc('Ports:', table(['web', '80'], ['api', '8080']), 'After.');
    const ours = doc('Ports:', table(['web', '8000'], ['api', '8080']), 'After.');
    const theirs = doc('Ports:', table(['web', '81'], ['api', '8080']), 'After.');
    const r = merge(base, ours, theirs);
    expect(r.text).toBe(
      doc(
        'Ports:',
        conflict([table(['web', '8000'], ['api', '8080'])], [table(['web', '81'], ['api', '8080'])]),
        'After.',
      ),
    );
    expect(r.text).not.toMatch(/<<<<<<<|=======|>>>>>>>/);
    // Each side is a whole, well-formed table.
    const [block] = markdownToDocument(r.text).nodes.filter((n) => n.type === 'conflict') as {
      nodes: { nodes: { type: string }[] }[];
    }[];
    expect(block!.nodes.map((side) => side.nodes.map((n) => n.type))).toEqual([['table'], ['table']]);
  });

  it('widens a conflict inside a code block to the whole code block of each side', () => {
    const base = doc('Run:', CODE);
    const ours = doc('Run:', CODE.replace('80;', '8000;'));
    const theirs = doc('Run:', CODE.replace('80;', '443;'));
    const r = merge(base, ours, theirs);
    expect(r.conflicts).toBe(1);
    expect(r.text).toBe(doc('Run:', conflict([CODE.replace('80;', '8000;')], [CODE.replace('80;', '443;')])));
    const sides = (markdownToDocument(r.text).nodes[1] as unknown as { nodes: { nodes: { type: string }[] }[] }).nodes;
    expect(sides.map((s) => s.nodes.map((n) => n.type))).toEqual([['code'], ['code']]);
    // Lines of a code block edited apart merge.
    expect(
      merge(base, doc('Run:', CODE.replace('80;', '8000;')), doc('Run:', CODE.replace('listen(', 'serve('))).text,
    ).toBe(doc('Run:', CODE.replace('80;', '8000;').replace('listen(', 'serve(')));
  });

  it('keeps an edited block that the other side deleted, against an empty side', () => {
    const base = doc('A.', 'B.', 'C.');
    const r = merge(base, doc('A.', 'C.'), doc('A.', 'B, edited.', 'C.'));
    expect(r.conflicts).toBe(1);
    expect(r.text).toBe(doc('A.', conflict([], ['B, edited.']), 'C.'));
  });

  it('does not nest conflicts: a block left unresolved by an earlier update keeps only its change request side', () => {
    const mainOne = doc('A.', 'Main one.', 'C.');
    const cr = normalizeMarkdown(doc('A.', conflict(['Main one.'], ['CR one.']), 'C.'));
    const r = merge(mainOne, doc('A.', 'Main two.', 'C.'), cr);
    expect(r).toEqual({ text: doc('A.', conflict(['Main two.'], ['CR one.']), 'C.'), conflicts: 1 });
    // Main not changing that paragraph again leaves the change request's block as it is.
    expect(merge(mainOne, doc('A!', 'Main one.', 'C.'), cr).text).toBe(cr.replace('A.', 'A!'));
  });

  it('merges two-way from an empty base (a page added on both sides)', () => {
    expect(merge('', doc('Same.'), doc('Same.'))).toEqual({ text: doc('Same.'), conflicts: 0 });
    expect(merge('', doc('One.'), doc('Two.')).text).toBe(doc(conflict(['One.'], ['Two.'])));
  });

  it('loses nothing: every block either side wrote is in the result, which is canonical markdown', () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'omega');
    const block = fc.oneof(
      fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ') + '.'),
      fc.tuple(word, word).map(([a, b]) => `## ${a} ${b}`),
      fc.tuple(word, word).map(([a, b]) => ['```', a, b, '```'].join('\n')),
    );
    const edits = (base: string[]) =>
      fc
        .array(fc.tuple(fc.nat(base.length), fc.constantFrom('replace', 'delete', 'insert'), block), { maxLength: 3 })
        .map((ops) => {
          const out = [...base];
          for (const [at, op, b] of ops) {
            const i = Math.min(at, out.length);
            if (op === 'insert') out.splice(i, 0, b);
            else if (i < out.length) out.splice(i, 1, ...(op === 'replace' ? [b] : []));
          }
          return out;
        });
    const blocks = fc.uniqueArray(block, { minLength: 1, maxLength: 6 });
    const cases = blocks.chain((base) => fc.tuple(fc.constant(base), edits(base), edits(base)));
    fc.assert(
      fc.property(cases, ([base, ours, theirs]) => {
        const text = (bs: string[]) => (bs.length ? normalizeMarkdown(doc(...bs)) : '');
        const r = merge(text(base), text(ours), text(theirs));
        expect(conflictsIn(r.text)).toBe(r.conflicts);
        expect(normalizeMarkdown(r.text)).toBe(r.text);
        const baseSet = new Set(base.map((b) => text([b])));
        for (const b of [...ours, ...theirs])
          if (!baseSet.has(text([b]))) expect(r.text).toContain(text([b]).trimEnd());
      }),
      { numRuns: 60 },
    );
  });
});
