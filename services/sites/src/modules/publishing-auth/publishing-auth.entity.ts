import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestampColumns } from '@quire/kit';

/**
 * The publishing auth of a site: the key its visitor-auth backend signs visitor JWTs with (HS256), sealed with
 * the kit's `SecretBox` (aad `site-publishing-auth:<siteId>`), and where visitors are sent to sign in or out.
 * Created with a random key the first time the site's publishing auth is read or changed.
 */
export const SitePublishingAuth = defineEntity({
  name: 'SitePublishingAuth',
  tableName: 'site_publishing_auth',
  properties: {
    siteId: p.string().primary(),
    backend: p.string().$type<'custom' | 'integration'>(),
    privateKeySealed: p.string(),
    fallbackUrl: p.string().nullable(),
    logoutUrl: p.string().nullable(),
    ...timestampColumns(),
  },
});
export type ISitePublishingAuth = InferEntity<typeof SitePublishingAuth>;
