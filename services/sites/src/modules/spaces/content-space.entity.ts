import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The sites service's own view of the content service's spaces, kept from `space.*` events:
 * site spaces will only point at spaces this projection knows, in the site's organization.
 */
export const ContentSpace = defineEntity({
  name: 'ContentSpace',
  tableName: 'content_space',
  properties: {
    id: p.string().primary(),
    organizationId: p.string().index(),
    title: p.string(),
    createdAt: p.datetime(),
  },
});
export type IContentSpace = InferEntity<typeof ContentSpace>;
