import type { SiteRedirectDestination } from '@quire/contracts';
import { conflict, newId, type EntityManager } from '@quire/kit';
import type { ISiteRedirect } from '../modules/redirects/redirect.entity.ts';
import { redirectRepository } from '../modules/redirects/redirect.repository.ts';
import type { ISite } from '../modules/sites/site.entity.ts';

/** What a redirect says, as a command writes it. */
export interface RedirectFields {
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: SiteRedirectDestination;
}

const taken = (source: string, draft: boolean) =>
  conflict(`Invalid \`source\`: the site already has a ${draft ? 'draft' : 'live'} redirect from ${source}`);

/**
 * A new redirect of the site. The unique key (site, draft, source) decides in PostgreSQL: a second create of
 * the same source (even racing) inserts nothing and is a 409 naming `source`.
 */
export async function redirectCreator(
  em: EntityManager,
  props: { site: ISite; fields: RedirectFields; now?: Date },
): Promise<ISiteRedirect> {
  const { fields } = props;
  const now = props.now ?? new Date();
  const created = await redirectRepository.insertUnlessTaken(em, {
    id: newId(),
    siteId: props.site.id,
    ...fields,
    createdAt: now,
    updatedAt: now,
  });
  if (!created) throw taken(fields.source, fields.draft);
  return created;
}

/**
 * Creates or replaces the redirect of a source (live or draft) in one statement; `created` says which. A
 * replaced redirect keeps its id and creation date.
 */
export async function redirectUpserter(
  em: EntityManager,
  props: { site: ISite; fields: Omit<RedirectFields, 'permanent'> & { permanent?: boolean | undefined }; now?: Date },
): Promise<{ redirect: ISiteRedirect; created: boolean }> {
  const { fields } = props;
  const now = props.now ?? new Date();
  return redirectRepository.upsert(em, {
    id: newId(),
    siteId: props.site.id,
    ...fields,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Changes a redirect. Moving it onto a source (or draft state) another redirect of the site holds is a 409
 * naming `source`: checked by the unique key in PostgreSQL, so two racing changes cannot both win.
 */
export async function redirectUpdater(
  em: EntityManager,
  props: { redirect: ISiteRedirect; patch: Partial<RedirectFields>; now?: Date },
): Promise<ISiteRedirect> {
  const next = { ...pick(props.redirect), ...definedOf(props.patch) };
  const updated = await redirectRepository.updateUnlessTaken(em, {
    ...next,
    id: props.redirect.id,
    siteId: props.redirect.siteId,
    updatedAt: props.now ?? new Date(),
  });
  if (!updated) throw taken(next.source, next.draft);
  return updated;
}

/** Deletes a redirect of the site by id; whether there was one. */
export async function redirectDeleter(em: EntityManager, props: { siteId: string; id: string }): Promise<boolean> {
  return redirectRepository.deleteById(em, props.siteId, props.id);
}

/** Deletes the live or draft redirect of a source; whether there was one. */
export async function redirectSourceDeleter(
  em: EntityManager,
  props: { siteId: string; source: string; draft: boolean },
): Promise<boolean> {
  return (await redirectRepository.deleteBySource(em, props.siteId, props.source, props.draft)) !== null;
}

/**
 * Publishes the draft redirect of a source: the live redirect of the source takes the draft's settings (created
 * when there is none) and the draft is removed. Null when the source has no draft.
 */
export async function redirectPublisher(
  em: EntityManager,
  props: { site: ISite; source: string; now?: Date },
): Promise<ISiteRedirect | null> {
  const draft = await redirectRepository.deleteBySource(em, props.site.id, props.source, true);
  if (!draft) return null;
  const fields = { ...pick(draft), draft: false };
  return (await redirectUpserter(em, { site: props.site, fields, ...(props.now ? { now: props.now } : {}) })).redirect;
}

const pick = (r: ISiteRedirect): RedirectFields => ({
  source: r.source,
  draft: r.draft,
  captureWildcard: r.captureWildcard,
  permanent: r.permanent,
  destination: r.destination,
});

const definedOf = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
