import { invalid, type EntityManager } from '@quire/kit';
import { assertConditionNamesAttributes, checkAdaptiveSchema } from '../modules/adaptive/adaptive-schema.ts';
import type { ISite } from '../modules/sites/site.entity.ts';
import type { SiteTree } from '../modules/structure/site-tree.ts';
import { siteChanged } from './structure-helpers.ts';

/**
 * Sets a site's visitor claims schema once it passes the checks (ajv, adaptive rules: 400 naming the path).
 * The conditions already on the site's sections and site spaces must still name only its attributes (400).
 */
export function adaptiveSchemaSetter(em: EntityManager, props: { site: ISite; tree: SiteTree; jsonSchema: Record<string, unknown>; now?: Date }): ISite {
  const { site, tree } = props;
  const now = props.now ?? new Date();
  const attributes = checkAdaptiveSchema(props.jsonSchema);
  const conditions = [
    ...tree.sections.map((s) => ({ what: `section ${s.id}`, condition: s.condition })),
    ...tree.spaces.map((t) => ({ what: `site space ${t.entity.id}`, condition: t.entity.condition })),
  ];
  for (const c of conditions) {
    if (c.condition == null) continue;
    try {
      assertConditionNamesAttributes(c.condition, attributes, 'condition');
    } catch {
      throw invalid(`jsonSchema: the condition of ${c.what} names attributes this schema does not have (${c.condition})`);
    }
  }
  site.adaptiveSchema = props.jsonSchema;
  site.adaptiveSchemaUpdatedAt = now;
  siteChanged(em, site, ['adaptiveSchema'], now);
  return site;
}
