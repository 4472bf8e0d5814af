import { newId, type EntityManager } from '@quire/kit';
import { ShareLink, type IShareLink } from '../modules/share-links/share-link.entity.ts';
import type { ShareKeyBox } from '../modules/share-links/share-key.ts';
import type { ISite } from '../modules/sites/site.entity.ts';

/** A new active share link with a fresh secret key (sealed and hashed); returns it with the key. */
export function shareLinkCreator(
  em: EntityManager,
  props: { site: ISite; name: string; box: ShareKeyBox; now?: Date },
): { link: IShareLink; key: string } {
  const key = props.box.newKey();
  const link = em.create(ShareLink, {
    id: newId(),
    siteId: props.site.id,
    name: props.name,
    keyHash: props.box.hash(key),
    keySealed: props.box.seal(key),
    active: true,
    createdAt: props.now ?? new Date(),
  });
  return { link, key };
}

/** Renames a share link or turns it on or off. */
export function shareLinkUpdater(
  em: EntityManager,
  props: { link: IShareLink; name?: string | undefined; active?: boolean | undefined },
): IShareLink {
  if (props.name !== undefined) props.link.name = props.name;
  if (props.active !== undefined) props.link.active = props.active;
  em.persist(props.link);
  return props.link;
}

/** Gives a share link a new secret key (sealed and hashed): the old key opens nothing from the commit on. */
export function shareLinkKeyRotator(
  em: EntityManager,
  props: { link: IShareLink; box: ShareKeyBox },
): { link: IShareLink; key: string } {
  const key = props.box.newKey();
  props.link.keyHash = props.box.hash(key);
  props.link.keySealed = props.box.seal(key);
  em.persist(props.link);
  return { link: props.link, key };
}

/** Deletes a share link: its key opens nothing any more. */
export function shareLinkDeleter(em: EntityManager, { link }: { link: IShareLink }): void {
  em.remove(link);
}
