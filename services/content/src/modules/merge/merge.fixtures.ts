import { createHash } from 'node:crypto';
import { pageSnapshot, type PageSnapshot, type TreeSnapshot } from './tree.ts';

/** Test helpers: small hand-made trees and a content-addressed markdown store that records what it loads. */

export const page = (id: string, fields: Partial<PageSnapshot> = {}): PageSnapshot =>
  pageSnapshot(id, 'a0', { title: id, slug: id, ...fields });

export const tree = (...pages: PageSnapshot[]): Map<string, PageSnapshot> => new Map(pages.map((p) => [p.id, p]));

/** A copy of `t` with page `id` changed (a new object: snapshots are immutable). */
export function edit(t: TreeSnapshot, id: string, fields: Partial<PageSnapshot>): Map<string, PageSnapshot> {
  const current = t.get(id);
  if (!current) throw new Error(`no page ${id}`);
  return new Map([...t].map(([k, p]) => [k, k === id ? { ...p, ...fields } : p]));
}

/** A copy of `t` with `pages` added or replaced. */
export const withPages = (t: TreeSnapshot, ...pages: PageSnapshot[]): Map<string, PageSnapshot> =>
  new Map([...t, ...pages.map((p) => [p.id, p] as const)]);

/** A copy of `t` without the pages `ids`. */
export const without = (t: TreeSnapshot, ...ids: string[]): Map<string, PageSnapshot> =>
  new Map([...t].filter(([k]) => !ids.includes(k)));

export class MarkdownStore {
  readonly docs = new Map<string, string>();
  /** Every hash loaded, in order. */
  readonly loads: string[] = [];

  hash = (markdown: string): string => `sha256:${createHash('sha256').update(markdown).digest('hex').slice(0, 16)}`;

  put(markdown: string): string {
    const h = this.hash(markdown);
    this.docs.set(h, markdown);
    return h;
  }

  /** Keeps the documents a merge produced, as the engine would. */
  keep(documents: ReadonlyMap<string, string>): void {
    for (const [h, md] of documents) {
      expectHash(this.hash(md), h);
      this.docs.set(h, md);
    }
  }

  load = async (h: string): Promise<string> => {
    this.loads.push(h);
    const md = this.docs.get(h);
    if (md === undefined) throw new Error(`no document ${h}`);
    return md;
  };

  text(h: string | null | undefined): string {
    if (h === null || h === undefined) return '';
    const md = this.docs.get(h);
    if (md === undefined) throw new Error(`no document ${h}`);
    return md;
  }
}

function expectHash(actual: string, expected: string): void {
  if (actual !== expected) throw new Error(`document stored under ${expected} hashes to ${actual}`);
}
