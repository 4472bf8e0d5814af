/** A page of a path index: what {@link relativePage} needs of it. */
export interface PathIndexed {
  type: string;
  path?: string;
}

/**
 * A relative link of the markdown (`../setup.md#a`, `setup`, `guide/README.md`) written on the page at `current`
 * (a page path, `getting-started/installation`), as the document page it names and the link's `?…`/`#…` suffix, or
 * null. The link is tried from the page's folder, then from the page itself (GitBook's pages are folders too). The
 * published site and the app's Page screen both resolve links with it.
 */
export function relativePage<P extends PathIndexed>(
  byPath: ReadonlyMap<string, P>,
  current: string,
  url: string,
): { page: P; suffix: string } | null {
  const m = /^([^?#]*)([?#].*)?$/.exec(url);
  if (!m) return null;
  const [, path = '', suffix = ''] = m;
  if (path === '') return null;
  const clean = path
    .replace(/\.md$/i, '')
    .replace(/(^|\/)README$/i, '')
    .replace(/\/+$/, '');
  for (const dir of [current.split('/').slice(0, -1), current.split('/')]) {
    const parts = [...dir];
    for (const seg of clean.split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.' && seg !== '') parts.push(seg);
    }
    const found = byPath.get(parts.join('/'));
    if (found && found.type === 'document') return { page: found, suffix };
  }
  return null;
}
