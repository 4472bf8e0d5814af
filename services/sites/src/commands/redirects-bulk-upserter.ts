import type {
  SiteRedirectBulkItem,
  SiteRedirectBulkResult,
  SiteRedirectDestination,
  SiteRedirectInputDestination,
} from '@quire/contracts';
import { DomainError, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { redirectPublisher, redirectSourceDeleter, redirectUpserter } from './redirect-commands.ts';

export interface RedirectsBulkUpserterProps {
  site: ISite;
  items: SiteRedirectBulkItem[];
  /** The destination to store for one given (a 400 naming `field` when it names nothing on the site). */
  resolve: (destination: SiteRedirectInputDestination, field: string) => Promise<SiteRedirectDestination>;
}

/** One item of a bulk upsert, on its own: a destination naming nothing on the site is that item's error. */
async function bulkItem(
  em: EntityManager,
  { site, resolve }: Pick<RedirectsBulkUpserterProps, 'site' | 'resolve'>,
  item: SiteRedirectBulkItem,
  i: number,
): Promise<SiteRedirectBulkResult> {
  if (item.intent === 'publish') {
    const live = await redirectPublisher(em, { site, source: item.source });
    if (!live)
      return {
        status: 'error',
        source: item.source,
        draft: true,
        error: `redirects.${i}.source: no draft redirect from ${item.source}`,
      };
    return { status: 'published', source: item.source, draft: false, id: live.id };
  }
  const draft = item.intent === 'draft';
  if (item.destination === null) {
    if (await redirectSourceDeleter(em, { siteId: site.id, source: item.source, draft }))
      return { status: 'deleted', source: item.source, draft };
    return {
      status: 'error',
      source: item.source,
      draft,
      error: `redirects.${i}.source: no ${item.intent} redirect from ${item.source}`,
    };
  }
  try {
    const destination = await resolve(item.destination, `redirects.${i}.destination`);
    const fields = {
      source: item.source,
      draft,
      captureWildcard: item.captureWildcard,
      permanent: item.permanent,
      destination,
    };
    const { redirect, created } = await redirectUpserter(em, { site, fields });
    return { status: created ? 'created' : 'updated', source: item.source, draft, id: redirect.id };
  } catch (err) {
    if (err instanceof DomainError && err.reason === 'invalid_input')
      return { status: 'error', source: item.source, draft, error: err.message };
    throw err;
  }
}

/** A bulk upsert of redirects: each item on its own, in order; an item's own error is its result, not the call's. */
export async function redirectsBulkUpserter(
  em: EntityManager,
  props: RedirectsBulkUpserterProps,
): Promise<SiteRedirectBulkResult[]> {
  const results: SiteRedirectBulkResult[] = [];
  for (const [i, item] of props.items.entries()) results.push(await bulkItem(em, props, item, i));
  return results;
}
