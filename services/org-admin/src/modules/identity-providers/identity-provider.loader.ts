import type { PageRequest } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import type { identityProviderRepository } from './identity-provider.repository.ts';

type Ctx = Pick<UserContext, 'actor' | 'em'>;
type Repository<P extends { id: string; organizationId: string; createdAt: Date }> = ReturnType<
  typeof identityProviderRepository<P>
>;

/**
 * An identity provider (SAML, OpenID Connect) of the organization, for its admins: 404 when the caller is not a
 * member or the organization has none with this id, 403 below `admin`.
 */
export async function loadIdentityProviderFor<P extends { id: string; organizationId: string; createdAt: Date }>(
  ctx: Ctx,
  repository: Repository<P>,
  where: { organizationId: string },
  id: string,
): Promise<P> {
  assertOrganizationAction(ctx, where, 'manageSaml');
  return repository.findOrThrow(ctx.em, where.organizationId, id);
}

/** A page of the organization's identity providers of one kind, oldest first, for its admins. */
export function loadIdentityProviders<P extends { id: string; organizationId: string; createdAt: Date }>(
  ctx: Ctx,
  repository: Repository<P>,
  input: { organizationId: string } & PageRequest,
) {
  assertOrganizationAction(ctx, input, 'manageSaml');
  return repository.page(ctx.em, input.organizationId, input);
}
