import type { EntityManager } from '@quire/kit';
import type { ISite } from '../sites/site.entity.ts';
import { keyBox, type KeyBoxConfig } from '../publishing-auth/private-key.ts';
import { sealedShareKeyBox, shareKeyBox, type ShareKeyBox } from './share-key.ts';
import { opens, shareLinkRepository } from './share-link.repository.ts';

const boxes = new WeakMap<KeyBoxConfig, ShareKeyBox>();

/**
 * The share key sealer of the deployment: the secrets box (QUIRE_SECRETS_KEY), the internal secret's key of
 * earlier versions opening the keys it sealed (one per configuration object).
 */
export function boxFor(config: KeyBoxConfig): ShareKeyBox {
  let box = boxes.get(config);
  if (!box) boxes.set(config, (box = sealedShareKeyBox(keyBox(config), shareKeyBox(config.QUIRE_INTERNAL_SECRET))));
  return box;
}

/**
 * The key when it opens this site: an active share link of this `share-link` site; null otherwise (no key,
 * an unknown, inactive or deleted link's key, another site's key, or a site of another visibility).
 */
export async function resolveShareKey(
  ctx: { em: EntityManager; config: KeyBoxConfig },
  site: ISite,
  key: string | undefined,
): Promise<string | null> {
  if (key === undefined || site.visibility !== 'share-link') return null;
  const link = await shareLinkRepository.findActiveByHash(ctx.em, boxFor(ctx.config).hash(key));
  return opens(site, link) ? key : null;
}
