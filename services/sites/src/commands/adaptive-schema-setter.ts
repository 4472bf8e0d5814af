import type { EntityManager } from '@quire/kit';
import { checkAdaptiveSchema } from '../modules/adaptive/adaptive-schema.ts';
import type { ISite } from '../modules/sites/site.entity.ts';
import type { SiteTree } from '../modules/structure/site-tree.ts';
import { siteChanged } from './structure-helpers.ts';

/**
 * Sets a site's visitor claims schema once it passes the checks (ajv, adaptive rules: 400 naming the path).
 * Conditions are not checked against it: any condition of 1..1024 characters is accepted (a claim the
 * schema does not declare is simply absent when a visitor's conditions are evaluated).
 */
export function adaptiveSchemaSetter(
  em: EntityManager,
  props: { site: ISite; tree: SiteTree; jsonSchema: Record<string, unknown>; now?: Date },
): ISite {
  const { site } = props;
  const now = props.now ?? new Date();
  checkAdaptiveSchema(props.jsonSchema);
  site.adaptiveSchema = props.jsonSchema;
  site.adaptiveSchemaUpdatedAt = now;
  siteChanged(em, site, ['adaptiveSchema'], now);
  return site;
}
