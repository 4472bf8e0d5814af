import { describe, expect, it } from 'vitest';
import type { ReusableContentRecord, RevisionTree } from '../revisions/revision-tree.ts';
import { documentHash } from '../revisions/document.repository.ts';
import type { RepoPage } from './repo-export.ts';
import { planTree } from './tree-plan.ts';

const t0 = new Date('2026-01-01T00:00:00Z');
const now = new Date('2026-02-01T00:00:00Z');
const rc = (id: string, title: string, markdown: string): ReusableContentRecord => ({
  id,
  title,
  documentHash: documentHash(markdown),
  createdAt: t0,
  updatedAt: t0,
});
const page = (id: string, markdown: string): RepoPage => ({
  id,
  kind: 'document',
  title: id,
  slug: id,
  emoji: null,
  icon: null,
  description: null,
  hidden: false,
  href: null,
  markdown,
  children: [],
});
const head = (reusable: ReusableContentRecord[]): RevisionTree => ({
  revision: { id: 'rev1' } as RevisionTree['revision'],
  pages: new Map(),
  files: new Map(),
  reusableContents: new Map(reusable.map((r) => [r.id, r])),
});

describe("an import's plan of the reusable contents (.gitbook/includes/)", () => {
  it('keeps the same ones as they were, updates a changed one, adds a new one', () => {
    const before = [rc('r1', 'Note', 'Same.\n'), rc('r2', 'Hint', 'Old.\n')];
    const normalized = new Map([
      ['r1', 'Same.\n'],
      ['r2', 'New.\n'],
      ['r3', 'Added.\n'],
    ]);
    const plan = planTree(head(before), [], [], normalized, new Map(), now, [
      { id: 'r1', title: 'Note', markdown: 'Same.\n' },
      { id: 'r2', title: 'Hint', markdown: 'New.\n' },
      { id: 'r3', title: 'Tip', markdown: 'Added.\n' },
    ]);
    expect(plan.changed).toBe(true);
    expect(plan.reusableContents!.get('r1')).toBe(before[0]);
    expect(plan.reusableContents!.get('r2')).toMatchObject({ documentHash: documentHash('New.\n'), createdAt: t0 });
    expect(plan.reusableContents!.get('r3')).toMatchObject({ title: 'Tip', createdAt: now });
    expect(plan.documents.get(documentHash('Added.\n'))).toBe('Added.\n');
    // nothing differs: no change
    const same = planTree(
      head(before),
      [],
      [],
      new Map([
        ['r1', 'Same.\n'],
        ['r2', 'Old.\n'],
      ]),
      new Map(),
      now,
      [
        { id: 'r1', title: 'Note', markdown: 'Same.\n' },
        { id: 'r2', title: 'Hint', markdown: 'Old.\n' },
      ],
    );
    expect(same.changed).toBe(false);
  });

  it('deletes one the repository lacks, but keeps one a page still includes by its id', () => {
    const before = [rc('r1', 'Kept', 'A.\n'), rc('r2', 'Gone', 'B.\n')];
    const markdown = 'Intro.\n\n{% include "r1" %}\n';
    const plan = planTree(head(before), [page('p1', markdown)], [], new Map([['p1', markdown]]), new Map(), now, []);
    expect([...plan.reusableContents!.keys()]).toEqual(['r1']);
    expect(plan.changed).toBe(true);
    // without the list (not an import of reusable contents), the head's are left to the writer
    expect(planTree(head(before), [], [], new Map(), new Map(), now).reusableContents).toBeUndefined();
  });
});
