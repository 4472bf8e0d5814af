import type { EntityManager } from '@mikro-orm/postgresql';
import { reachingGrants } from '../access/access.policy.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';
import type { SpaceScope } from '../spaces/space.policy.ts';

/**
 * The spaces a team has access to through its grants (`Team.spaces`), as a scope: the spaces it was given a role on,
 * and those inheriting from a collection whose grants reach them (the access rule's walk, `reachingGrants`).
 * Neither the organization role of the team's members nor the default levels count: they are not the team's.
 */
export function teamSpaces(tree: CollectionTree, organizationId: string, teamId: string): SpaceScope {
  const reaches = (grants: { kind: string; id: string }[]) => grants.some((g) => g.kind === 'team' && g.id === teamId);
  const openParents = tree.ids.filter((id) =>
    reaches(reachingGrants(tree.factsOf({ organizationId, defaultLevel: 'inherit', parentId: id }))),
  );
  const grantedSpaces = tree.grantedSpaceIds.filter((id) =>
    reaches(reachingGrants(tree.factsOf({ id, organizationId, defaultLevel: null }))),
  );
  if (!openParents.length && !grantedSpaces.length) return { kind: 'none' };
  return { kind: 'open', byLevel: false, openParents, grantedSpaces };
}

/** `Team.spaces` of each of `teams` (asked by org-admin for a page of teams): one count of live spaces per team. */
export async function loadTeamSpaceCounts(
  em: EntityManager,
  input: { organizationId: string; teams: string[] },
): Promise<{ counts: Record<string, number> }> {
  const tree = await collectionRepository.tree(em, input.organizationId);
  const counts: Record<string, number> = {};
  for (const team of new Set(input.teams))
    counts[team] = await spaceRepository.countInScope(
      em,
      input.organizationId,
      teamSpaces(tree, input.organizationId, team),
    );
  return { counts };
}
