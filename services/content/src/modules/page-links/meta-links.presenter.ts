import type { RevisionPageMetaLinks } from '@quire/contracts';
import type { PageRecord } from '../revisions/revision-tree.ts';

/**
 * GitBook's `RevisionPageMetaLinks` of a page: the canonical location and the alternates (translations) it
 * declares. A Quire page declares neither (no page setting, no front matter field holds them), so there are none:
 * a renderer then uses the page's own URL as canonical, as it does for a GitBook page without meta links.
 */
export function presentMetaLinks(_page: PageRecord): RevisionPageMetaLinks {
  return { alternates: [] };
}
