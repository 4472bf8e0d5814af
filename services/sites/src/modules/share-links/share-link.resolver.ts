import type { EntityManager } from '@quire/kit';
import type { ISite } from '../sites/site.entity.ts';
import { shareKeyBox, type ShareKeyBox } from './share-key.ts';
import { opens, shareLinkRepository } from './share-link.repository.ts';

const boxes = new Map<string, ShareKeyBox>();

/** The share key sealer of the deployment (keyed by its secret). */
export function boxFor(config: { QUIRE_INTERNAL_SECRET: string }): ShareKeyBox {
  let box = boxes.get(config.QUIRE_INTERNAL_SECRET);
  if (!box) boxes.set(config.QUIRE_INTERNAL_SECRET, (box = shareKeyBox(config.QUIRE_INTERNAL_SECRET)));
  return box;
}

/**
 * The key when it opens this site: an active share link of this `share-link` site; null otherwise (no key,
 * an unknown, inactive or deleted link's key, another site's key, or a site of another visibility).
 */
export async function resolveShareKey(ctx: { em: EntityManager; config: { QUIRE_INTERNAL_SECRET: string } }, site: ISite, key: string | undefined): Promise<string | null> {
  if (key === undefined || site.visibility !== 'share-link') return null;
  const link = await shareLinkRepository.findActiveByHash(ctx.em, boxFor(ctx.config).hash(key));
  return opens(site, link) ? key : null;
}
