import { z } from 'zod';
import { NoContentSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import { siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

/**
 * An item of a site's structure (a section, a section group, a site space): each is deleted and moved (the
 * deprecated per-item move; `sortSiteStructure` moves many) by the same two operations under its own route.
 */
export interface StructureItem<
  P extends z.ZodRawShape,
  S extends z.ZodType = z.ZodType,
  Position extends z.ZodType = z.ZodType,
> {
  /** The noun of the ids: `siteSections`. */
  noun: 'siteSections' | 'siteSectionGroups' | 'siteSpaces';
  /** In the GitBook operationIds: `deleteSiteSectionById`, `moveSiteSection`. */
  name: 'SiteSection' | 'SiteSectionGroup' | 'SiteSpace';
  /** The route below the site: `sections/{siteSectionId}`. */
  path: string;
  param: P;
  schema: S;
  position: Position;
}

export const deleteStructureItem = <P extends z.ZodRawShape>(item: StructureItem<P>, summary: string) =>
  op({
    id: `${item.noun}.delete`,
    input: z.object({ organizationId, siteId, ...item.param }),
    output: NoContentSchema,
    http: {
      route: `DELETE /orgs/{organizationId}/sites/{siteId}/${item.path}`,
      status: 205,
      operationId: `delete${item.name}ById`,
      summary,
    },
  });

export const moveStructureItem = <P extends z.ZodRawShape, S extends z.ZodType, Position extends z.ZodType>(
  item: StructureItem<P, S, Position>,
  summary: string,
) =>
  op({
    id: `${item.noun}.move`,
    input: z.object({ organizationId, siteId, ...item.param, position: item.position.optional() }),
    output: item.schema,
    http: {
      route: `POST /orgs/{organizationId}/sites/{siteId}/${item.path}/move`,
      operationId: `move${item.name}`,
      summary,
    },
  });
