import type { Orm } from '@quire/kit';
import { organizationRepository } from './modules/organizations/organization.repository.ts';

/** Whether the instance has an organization yet (what `quire start` tells a new user to do next). */
export function instanceHasOrganizations(orm: Orm): Promise<boolean> {
  return organizationRepository.any(orm.em.fork());
}
