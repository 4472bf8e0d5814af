import type { EntityManager } from '@quire/kit';
import { ContentSpace } from '../spaces/content-space.entity.ts';
import { SiteSection, SiteSpace, type ISiteSection, type ISiteSpace } from './structure.entity.ts';

/** A site space with what the `content_space` projection knows of its space. */
export interface TreeSpace {
  entity: ISiteSpace;
  /** The space is in the content service's trash: the site space is hidden until it is restored. */
  hidden: boolean;
  /** The space title the projection holds (null before its first event arrived). */
  projectedTitle: string | null;
}

/** The level of a site space: its section, or the root (null). */
export type Level = string | null;

/**
 * The whole structure of one site in memory (three queries): its sections in order, its site spaces in
 * order within each level. Sites hold at most `MAX_SITE_SPACES` site spaces, so this stays small. The
 * "effective" defaults skip hidden site spaces: a level whose default is hidden shows its first visible one.
 */
export class SiteTree {
  readonly sections: ISiteSection[];
  readonly spaces: TreeSpace[];

  constructor(sections: ISiteSection[], spaces: TreeSpace[]) {
    const order = new Map(sections.map((s, i) => [s.id, i]));
    this.sections = sections;
    this.spaces = [...spaces].sort(
      (a, b) =>
        (order.get(a.entity.sectionId ?? '') ?? -1) - (order.get(b.entity.sectionId ?? '') ?? -1) ||
        a.entity.position - b.entity.position ||
        cmp(a.entity.id, b.entity.id),
    );
  }

  static async load(em: EntityManager, siteId: string): Promise<SiteTree> {
    const sections = await em.find(SiteSection, { siteId }, { orderBy: { position: 'asc', id: 'asc' } });
    const spaces = await em.find(SiteSpace, { siteId }, { orderBy: { position: 'asc', id: 'asc' } });
    const ids = [...new Set(spaces.map((s) => s.spaceId))];
    const projected = ids.length ? await em.find(ContentSpace, { id: { $in: ids } }) : [];
    const byId = new Map(projected.map((p) => [p.id, p]));
    return new SiteTree(
      sections,
      spaces.map((entity) => {
        const p = byId.get(entity.spaceId);
        return { entity, hidden: !!p?.deletedAt, projectedTitle: p?.title ?? null };
      }),
    );
  }

  /** With sections, the structure is the sections (root site spaces are not shown); otherwise the root site spaces. */
  get kind(): 'sections' | 'siteSpaces' {
    return this.sections.length ? 'sections' : 'siteSpaces';
  }

  section(id: string): ISiteSection | undefined {
    return this.sections.find((s) => s.id === id);
  }

  siteSpace(id: string): TreeSpace | undefined {
    return this.spaces.find((s) => s.entity.id === id);
  }

  /** Every site space of a level (hidden ones too), in order. */
  levelSpaces(level: Level): TreeSpace[] {
    return this.spaces.filter((s) => (s.entity.sectionId ?? null) === level);
  }

  /** The site spaces of a level a visitor sees, in order. */
  visibleIn(level: Level): TreeSpace[] {
    return this.levelSpaces(level).filter((s) => !s.hidden);
  }

  /** The site spaces the structure shows (in sections, or at the root), in order. */
  get shown(): TreeSpace[] {
    return this.kind === 'sections' ? this.sections.flatMap((s) => this.visibleIn(s.id)) : this.visibleIn(null);
  }

  /** The default section (the stored one, else the first). */
  get defaultSection(): ISiteSection | undefined {
    return this.sections.find((s) => s.isDefault) ?? this.sections[0];
  }

  /** The default site space of a level as visitors see it: the stored one when visible, else the first visible. */
  effectiveDefault(level: Level): TreeSpace | undefined {
    const visible = this.visibleIn(level);
    return visible.find((s) => s.entity.isDefault) ?? visible[0];
  }

  /** The default site space of the site: the one of its default section, or of the root. */
  get siteDefault(): TreeSpace | undefined {
    return this.effectiveDefault(this.kind === 'sections' ? (this.defaultSection?.id ?? null) : null);
  }

  /** The level new site spaces go to when no section is named: the default section, else the root. */
  get defaultLevel(): Level {
    return this.defaultSection?.id ?? null;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** At most this many site spaces on one site (the structure is presented with one batched call for its spaces). */
export const MAX_SITE_SPACES = 1000;
/** At most this many sections on one site. */
export const MAX_SECTIONS = 200;
