import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';

/** A share link of a site: its secret key sealed (AES-GCM) for showing it, hashed (SHA-256) for finding it. */
export const ShareLink = defineEntity({
  name: 'ShareLink',
  tableName: 'share_link',
  properties: {
    ...idColumn(),
    siteId: p.string(),
    name: p.string().nullable(),
    keyHash: p.string(),
    keySealed: p.string(),
    active: p.boolean(),
    createdAt: p.datetime(),
  },
});
export type IShareLink = InferEntity<typeof ShareLink>;
