import type { SitePublishingAuthDto } from '@quire/contracts';
import { conflict } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISitePublishingAuth } from './publishing-auth.entity.ts';
import { openPrivateKey } from './private-key.ts';

/** The publishing auth with its private key in clear: only these operations, for the members who manage it. */
export function presentPublishingAuth(
  ctx: Pick<SitesContext, 'config'>,
  auth: ISitePublishingAuth,
): SitePublishingAuthDto {
  let privateKey: string;
  try {
    privateKey = openPrivateKey(ctx.config, auth.siteId, auth.privateKeySealed);
  } catch {
    throw conflict(
      'The private key is sealed with a secrets key no longer configured: ' +
        'add it to QUIRE_SECRETS_PREVIOUS_KEYS, or regenerate the key',
    );
  }
  return {
    object: 'publishing-auth',
    backend: auth.backend,
    privateKey,
    ...(auth.fallbackUrl ? { fallbackURL: auth.fallbackUrl } : {}),
    ...(auth.logoutUrl ? { logoutURL: auth.logoutUrl } : {}),
  };
}
