import type { EntityManager } from '@quire/kit';
import { ContentSpace } from '../spaces/content-space.entity.ts';
import { compareOrdered } from './order.ts';
import {
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  type ISiteSection,
  type ISiteSectionGroup,
  type ISiteSpace,
} from './structure.entity.ts';

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

/** An item of the sections' navigation: a section or a section group, at the root (null) or in a group. */
export type NavItem =
  | { type: 'site-section'; entity: ISiteSection }
  | { type: 'site-section-group'; entity: ISiteSectionGroup };

/**
 * The whole structure of one site in memory (four queries): its section groups, its sections in navigation order
 * (depth first through the groups), its site spaces in order within each level. Sites hold at most
 * `MAX_SITE_SPACES` site spaces, so this stays small. The "effective" defaults skip hidden site spaces: a level
 * whose default is hidden shows its first visible one.
 */
export class SiteTree {
  readonly sections: ISiteSection[];
  readonly spaces: TreeSpace[];
  readonly groups: ISiteSectionGroup[];

  constructor(sections: ISiteSection[], spaces: TreeSpace[], groups: ISiteSectionGroup[] = []) {
    this.groups = groups;
    this.allSections = sections;
    this.sections = this.flatten(null, new Set());
    const order = new Map(this.sections.map((s, i) => [s.id, i]));
    this.spaces = [...spaces].sort(
      (a, b) =>
        (order.get(a.entity.sectionId ?? '') ?? -1) - (order.get(b.entity.sectionId ?? '') ?? -1) ||
        compareOrdered(a.entity, b.entity),
    );
  }

  private readonly allSections: ISiteSection[];

  /** The sections of a level and of the groups under it, in navigation order. */
  private flatten(level: string | null, seen: Set<string>): ISiteSection[] {
    return this.navItems(level).flatMap((item) => {
      if (item.type === 'site-section') return [item.entity];
      if (seen.has(item.entity.id)) return [];
      seen.add(item.entity.id);
      return this.flatten(item.entity.id, seen);
    });
  }

  /** The sections and groups of a level (the root, or a group), in order; a dangling group id counts as the root. */
  navItems(level: string | null): NavItem[] {
    const ids = new Set(this.groups.map((g) => g.id));
    const known = (id: string | null) => (id !== null && ids.has(id) ? id : null);
    const items: NavItem[] = [
      ...this.allSections
        .filter((s) => known(s.sectionGroupId ?? null) === level)
        .map((entity) => ({ type: 'site-section' as const, entity })),
      ...this.groups
        .filter((g) => known(g.parentId ?? null) === level && g.id !== g.parentId)
        .map((entity) => ({ type: 'site-section-group' as const, entity })),
    ];
    return items.sort((a, b) => compareOrdered(a.entity, b.entity));
  }

  /**
   * A section's place in navigation order as one string, for keyset cursors: `key!id` of each group above it, then
   * its own, joined by spaces. `!` and the space sort below every character of keys and ids, so two sections'
   * strings compare (by code unit) as the sections are ordered.
   */
  navKey(section: ISiteSection): string {
    const groups = section.sectionGroupId ? this.groupChain(section.sectionGroupId).reverse() : [];
    return [...groups, section].map((item) => `${item.order}!${item.id}`).join(' ');
  }

  group(id: string): ISiteSectionGroup | undefined {
    return this.groups.find((g) => g.id === id);
  }

  /** The group and the groups above it, innermost first. */
  groupChain(id: string): ISiteSectionGroup[] {
    const chain: ISiteSectionGroup[] = [];
    for (let g = this.group(id); g && !chain.includes(g); g = g.parentId ? this.group(g.parentId) : undefined)
      chain.push(g);
    return chain;
  }

  /** The groups reached from the root, in navigation order (depth first). */
  get orderedGroups(): ISiteSectionGroup[] {
    const out: ISiteSectionGroup[] = [];
    const walk = (level: string | null) => {
      for (const item of this.navItems(level)) {
        if (item.type !== 'site-section-group' || out.includes(item.entity)) continue;
        out.push(item.entity);
        walk(item.entity.id);
      }
    };
    walk(null);
    return out;
  }

  /** The sections in a group, directly or in the groups under it, in navigation order. */
  sectionsUnder(groupId: string): ISiteSection[] {
    return this.flatten(groupId, new Set([groupId]));
  }

  static async load(em: EntityManager, siteId: string): Promise<SiteTree> {
    const orderBy = { order: 'asc', id: 'asc' } as const;
    const groups = await em.find(SiteSectionGroup, { siteId }, { orderBy });
    const sections = await em.find(SiteSection, { siteId }, { orderBy });
    const spaces = await em.find(SiteSpace, { siteId }, { orderBy });
    const ids = [...new Set(spaces.map((s) => s.spaceId))];
    const projected = ids.length ? await em.find(ContentSpace, { id: { $in: ids } }) : [];
    const byId = new Map(projected.map((p) => [p.id, p]));
    return new SiteTree(
      sections,
      spaces.map((entity) => {
        const p = byId.get(entity.spaceId);
        return { entity, hidden: !!p?.deletedAt, projectedTitle: p?.title ?? null };
      }),
      groups,
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

/** At most this many site spaces on one site (the structure is presented with one batched call for its spaces). */
export const MAX_SITE_SPACES = 1000;
/** At most this many sections on one site. */
export const MAX_SECTIONS = 200;
/** At most this many section groups on one site, nested at most `MAX_GROUP_DEPTH` deep. */
export const MAX_SECTION_GROUPS = 100;
export const MAX_GROUP_DEPTH = 3;
