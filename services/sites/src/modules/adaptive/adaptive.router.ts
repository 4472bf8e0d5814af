import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { adaptiveSchemaSetter } from '../../commands/adaptive-schema-setter.ts';
import type { ISite } from '../sites/site.entity.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { attributesOf, conditionOf, EMPTY_ADAPTIVE_SCHEMA } from './adaptive-schema.ts';

const presentSchema = (site: ISite) => ({
  object: 'site-adaptive-schema' as const,
  jsonSchema: site.adaptiveSchema ?? EMPTY_ADAPTIVE_SCHEMA,
  updatedAt: (site.adaptiveSchemaUpdatedAt ?? site.createdAt).toISOString(),
});

export const adaptiveProcedures = {
  getSiteAdaptiveSchema: implement(ops.getSiteAdaptiveSchema, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    return presentSchema(site);
  }),

  updateSiteAdaptiveSchema: implement(ops.updateSiteAdaptiveSchema, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editAdaptiveSchema', { lock: true });
    return presentSchema(
      adaptiveSchemaSetter(ctx.em, { site, tree: await SiteTree.load(ctx.em, site.id), jsonSchema: input.jsonSchema }),
    );
  }),

  listSiteAdaptiveTemplateConditions: implement(ops.listSiteAdaptiveTemplateConditions, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    return {
      items: attributesOf(site.adaptiveSchema).map((a) => ({ description: a.description, condition: conditionOf(a) })),
    };
  }),
};
