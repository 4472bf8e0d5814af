import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { integrationPublisher } from '../../commands/integration-publisher.ts';
import { integrationUnpublisher } from '../../commands/integration-unpublisher.ts';
import { secretBoxOf } from '@quire/kit';
import { assertValidConfigurations } from './configuration-schema.ts';
import { loadForPublish, loadIntegrationFor, loadIntegrations } from './integration.loader.ts';
import { presentIntegration } from './integration.presenter.ts';
import { secretSafe } from './secret-safe-log.ts';

export const integrationProcedures = {
  listIntegrations: implement(ops.listIntegrations, async ({ input, ctx }) => {
    const { page, limit, ...filters } = input;
    const list = await loadIntegrations(ctx, filters, { page, limit });
    return { ...list, items: await Promise.all(list.items.map((i) => presentIntegration(ctx, i))) };
  }),

  getIntegrationByName: implement(ops.getIntegrationByName, async ({ input, ctx }) =>
    presentIntegration(ctx, await loadIntegrationFor(ctx, input.integrationName, 'view')),
  ),

  publishIntegration: implement(ops.publishIntegration, async ({ input, ctx }) => {
    const { organization, ...publication } = input;
    const existing = await loadForPublish(ctx, input.integrationName, organization);
    assertValidConfigurations(input.configurations);
    const box = secretBoxOf(ctx.config);
    const integration = await integrationPublisher(ctx.em, {
      input: publication,
      ownerId: organization,
      existing,
      blobs: ctx.blobs,
      box,
      publishedBy: ctx.actor.userId,
    });
    secretSafe(ctx.log).info(
      {
        integration: integration.name,
        version: integration.version,
        organization,
        visibility: integration.visibility,
        scopes: integration.scopes,
        secrets: input.secrets,
      },
      'integration published',
    );
    return presentIntegration(ctx, integration);
  }),

  unpublishIntegration: implement(ops.unpublishIntegration, async ({ input, ctx }) => {
    const integration = await loadIntegrationFor(ctx, input.integrationName, 'unpublish');
    const installations = await integrationUnpublisher(ctx.em, { integration });
    ctx.log.info({ integration: integration.name, installations: installations.length }, 'integration unpublished');
  }),
};
