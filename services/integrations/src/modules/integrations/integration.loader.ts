import { conflict, notFound } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import type { IIntegration } from './integration.entity.ts';
import { integrationPolicy, type IntegrationAction } from './integration.policy.ts';
import { integrationRepository } from './integration.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor'>;

export const factsOf = (i: IIntegration) => ({ ownerId: i.ownerId, visibility: i.visibility });

/** The integration the caller may `action` on: 404 when it does not exist or is not visible, 403 when its level is too low. */
export async function loadIntegrationFor(ctx: Ctx, name: string, action: IntegrationAction): Promise<IIntegration> {
  const integration = await integrationRepository.findByName(ctx.em, name);
  if (!integration) throw notFound('Integration');
  integrationPolicy.assert(ctx.actor, factsOf(integration), action);
  return integration;
}

/**
 * The current version of an integration about to be published by `organizationId` (null for a new name):
 * names are global, so a name another organization owns is a 409, visible to the caller or not.
 */
export async function loadForPublish(ctx: Ctx, name: string, organizationId: string): Promise<IIntegration | null> {
  const existing = await integrationRepository.findByName(ctx.em, name);
  if (existing && existing.ownerId !== organizationId) throw conflict(`The integration name \`${name}\` is taken by another organization`);
  return existing;
}
