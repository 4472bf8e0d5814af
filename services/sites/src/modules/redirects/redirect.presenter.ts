import type { SiteRedirectDto } from '@quire/contracts';
import type { ISiteRedirect } from './redirect.entity.ts';

/** A redirect in GitBook's shape; `updatedAt` only once it was changed after its creation. */
export function presentRedirect(r: ISiteRedirect): SiteRedirectDto {
  return {
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt.toISOString(),
    ...(r.updatedAt.getTime() > r.createdAt.getTime() ? { updatedAt: r.updatedAt.toISOString() } : {}),
  };
}
