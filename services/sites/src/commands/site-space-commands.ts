import type { Space } from '@quire/contracts';
import { conflict, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { contentSpaceRepository } from '../modules/spaces/content-space.repository.ts';
import { MAX_SITE_SPACES, type Level, type SiteTree } from '../modules/structure/site-tree.ts';
import type { ISiteSpace } from '../modules/structure/structure.entity.ts';
import {
  assignGiven,
  createSiteSpace,
  ensureDefault,
  siteChanged,
  structureItemSaved,
  type StructureChange,
} from './structure-helpers.ts';

/** Adds `space` to a level of the site (a section, or the root), last; the level's default when it has none. */
export async function siteSpaceAdder(
  em: EntityManager,
  props: { site: ISite; tree: SiteTree; level: Level; space: Space; now?: Date },
): Promise<ISiteSpace> {
  const now = props.now ?? new Date();
  if (props.tree.spaces.length >= MAX_SITE_SPACES)
    throw conflict(`A site holds at most ${MAX_SITE_SPACES} site spaces`);
  const created = await createSiteSpace(
    em,
    props.site,
    props.level,
    props.tree.levelSpaces(props.level).map((t) => t.entity),
    props.space,
    now,
  );
  siteChanged(em, props.site, ['siteSpaces'], now);
  return created;
}

export interface SiteSpaceUpdaterProps extends StructureChange {
  siteSpace: ISiteSpace;
  path?: string | undefined;
  /** Checked against the adaptive schema by the caller; null removes it. */
  condition?: string | null | undefined;
  /** The new space (checked by the caller). */
  space?: Space | undefined;
}

/** Changes a site space: `path` unique within its section or the root (409), its condition, the space it shows. */
export async function siteSpaceUpdater(em: EntityManager, props: SiteSpaceUpdaterProps): Promise<ISiteSpace> {
  const { siteSpace: s, tree } = props;
  if (
    props.path !== undefined &&
    props.path !== s.path &&
    tree.levelSpaces(s.sectionId ?? null).some((t) => t.entity.id !== s.id && t.entity.path === props.path)
  ) {
    throw conflict(
      `path: another site space ${s.sectionId ? 'of the section' : 'at the root of the site'} already uses "${props.path}"`,
    );
  }
  assignGiven(s, props, ['path', 'condition']);
  if (props.space) {
    const space = props.space;
    await contentSpaceRepository.insert(em, {
      id: space.id,
      organizationId: space.organization,
      title: space.title,
      at: space.updatedAt,
    });
    s.spaceId = space.id;
  }
  return structureItemSaved(em, props.site, s, ['siteSpaces'], props.now);
}

/** Removes a site space; when it was the default of its level, the first remaining one becomes it. */
export function siteSpaceDeleter(
  em: EntityManager,
  { site, tree, siteSpace, now = new Date() }: StructureChange & { siteSpace: ISiteSpace },
): void {
  em.remove(siteSpace);
  ensureDefault(
    tree
      .levelSpaces(siteSpace.sectionId ?? null)
      .map((t) => t.entity)
      .filter((s) => s.id !== siteSpace.id),
  );
  siteChanged(em, site, ['siteSpaces'], now);
}
