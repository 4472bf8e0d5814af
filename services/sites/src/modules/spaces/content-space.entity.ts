import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';

/**
 * The sites service's own view of the content service's spaces, kept from `space.*` events:
 * site spaces will only point at spaces this projection knows, in the site's organization
 * (a deleted space is hidden until restored; a purged one is gone).
 */
export const ContentSpace = defineEntity({
  name: 'ContentSpace',
  tableName: 'content_space',
  properties: {
    ...idColumn(),
    organizationId: p.string().index(),
    title: p.string(),
    createdAt: p.datetime(),
    /** Set while the space is in the content service's trash. */
    deletedAt: p.datetime().nullable(),
    /** When the last applied event happened: an older one delivered late changes nothing. */
    eventAt: p.datetime().nullable(),
  },
});
export type IContentSpace = InferEntity<typeof ContentSpace>;
