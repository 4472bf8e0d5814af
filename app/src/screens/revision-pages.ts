// A revision's page tree, searched: the page a revision screen opens (by its path in the revision), and the same
// page (by its id) among the space's current pages, for "Open the current page".
import type { RevisionPage } from '../api/endpoints.ts';
import { childrenOf } from './tree/placed.ts';

/** The page of this id at any level of the tree, or undefined. */
export const findPage = (pages: readonly RevisionPage[], id: string) => find(pages, (p) => p.id === id);

/** The document of this path (as in the app's URL: percent-encoded or not) at any level of the tree, or undefined. */
export function findDocument(pages: readonly RevisionPage[], path: string) {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // not percent-encoded
  }
  const found = find(pages, (p) => p.type === 'document' && (p.path === path || p.path === decoded));
  return found?.type === 'document' ? found : undefined;
}

function find(pages: readonly RevisionPage[], hit: (p: RevisionPage) => boolean): RevisionPage | undefined {
  for (const p of pages) {
    if (hit(p)) return p;
    const inside = find(childrenOf(p), hit);
    if (inside) return inside;
  }
  return undefined;
}
