import type { SiteAgentsContext, SiteVisibility } from '@quire/contracts';
import { conflict, invalid, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { siteRepository } from '../modules/sites/site.repository.ts';
import type { SiteTree } from '../modules/structure/site-tree.ts';
import { hostnameClaimer } from './hostname-commands.ts';
import { setDefault, siteChanged } from './structure-helpers.ts';

export interface SiteUpdaterProps {
  site: ISite;
  /** The site's structure, loaded under its row lock (for the defaults). */
  tree: SiteTree;
  title?: string | undefined;
  visibility?: SiteVisibility | undefined;
  basename?: string | undefined;
  hostname?: string | null | undefined;
  adaptiveContent?: { enabled: boolean } | undefined;
  agentsContext?: SiteAgentsContext | undefined;
  defaultSiteSpace?: string | undefined;
  defaultSiteSection?: string | undefined;
  proxy?: string | null | undefined;
  now?: Date;
}

/**
 * Changes a site's settings. `basename` (the site's `/sites/{basename}` URL) is unique across the instance (409); a
 * `hostname` is claimed unverified (`hostnameClaimer`: 409 when another site has proven it). `defaultSiteSection` must be a section of the site, `defaultSiteSpace` a site space at the root (no
 * sections) or in the default section, of a live space (400). Records `site.updated` with the changed fields.
 */
export async function siteUpdater(em: EntityManager, props: SiteUpdaterProps): Promise<ISite> {
  const { site, tree } = props;
  const now = props.now ?? new Date();
  const fields: string[] = [];
  const set = <K extends keyof ISite>(key: K, value: ISite[K] | undefined, name: string = String(key)) => {
    if (value === undefined || site[key] === value) return;
    site[key] = value;
    fields.push(name);
  };
  if (
    props.basename !== undefined &&
    props.basename !== site.basename &&
    (await siteRepository.basenameTaken(em, props.basename, site.id))
  ) {
    throw conflict(`basename: another site already uses "${props.basename}"`);
  }
  if (props.hostname !== undefined && (await hostnameClaimer(em, site, props.hostname))) fields.push('hostname');
  set('title', props.title);
  set('visibility', props.visibility);
  set('basename', props.basename);
  set('adaptiveEnabled', props.adaptiveContent?.enabled, 'adaptiveContent');
  set('agentsContext', props.agentsContext);
  set('proxyOrigin', props.proxy, 'proxy');

  if (props.defaultSiteSection !== undefined) {
    const section = tree.section(props.defaultSiteSection);
    if (!section) throw invalid(`defaultSiteSection: no section ${props.defaultSiteSection} on this site`);
    if (!section.isDefault) {
      setDefault(tree.sections, section);
      fields.push('defaultSiteSection');
    }
  }
  if (props.defaultSiteSpace !== undefined) {
    const chosen = tree.siteSpace(props.defaultSiteSpace);
    if (!chosen) throw invalid(`defaultSiteSpace: no site space ${props.defaultSiteSpace} on this site`);
    const level = tree.kind === 'sections' ? (tree.defaultSection?.id ?? null) : null;
    if ((chosen.entity.sectionId ?? null) !== level) {
      throw invalid(
        `defaultSiteSpace: site space ${chosen.entity.id} is not ${level ? 'in the default section' : 'at the root of the site'}`,
      );
    }
    if (chosen.hidden) throw invalid(`defaultSiteSpace: the space of site space ${chosen.entity.id} is deleted`);
    if (!chosen.entity.isDefault) {
      setDefault(
        tree.levelSpaces(level).map((t) => t.entity),
        chosen.entity,
      );
      fields.push('defaultSiteSpace');
    }
  }
  if (fields.length) siteChanged(em, site, fields, now);
  return site;
}
