import type { Role } from '@quire/contracts';
import { membershipOf, notFound } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import type { ICollection } from './collection.entity.ts';
import { collectionPolicy, type CollectionAccessFacts, type CollectionAction } from './collection.policy.ts';
import { collectionRepository } from './collection.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

export interface LoadedCollection {
  collection: ICollection;
  facts: CollectionAccessFacts;
  role: Role;
}

/** The collection the caller may `action` on, with its facts and the caller's role (404 not visible, 403 too low). */
export async function loadCollectionFor(ctx: Ctx, collectionId: string, action: CollectionAction): Promise<LoadedCollection> {
  const collection = await collectionRepository.findById(ctx.em, collectionId);
  if (!collection) throw notFound('Collection');
  const facts = await collectionRepository.factsOf(ctx.em, collection);
  return { collection, facts, role: collectionPolicy.assert(ctx.actor, facts, action) };
}

/**
 * Where new content goes: a collection of the organization (its facts), or the top level (null). 404 when
 * the caller is not a member of the organization or the collection is not one of its own.
 */
export async function loadContainer(ctx: Ctx, organizationId: string, parentId: string | null | undefined): Promise<CollectionAccessFacts | null> {
  if (!membershipOf(ctx.actor, organizationId)) throw notFound('Organization');
  if (parentId == null) return null;
  const parent = await collectionRepository.findIn(ctx.em, organizationId, parentId);
  if (!parent) throw notFound('Collection');
  return collectionRepository.factsOf(ctx.em, parent);
}
