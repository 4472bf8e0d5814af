import { ops } from '@quire/contracts';
import { notFound, paginate, type EntityManager } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { translationCreator, translationDeleter, translationUpdater } from '../../commands/translation-writer.ts';
import { TranslationSettings, type ITranslationSettings } from './translation-settings.entity.ts';
import { translationPolicy } from './translation.policy.ts';
import { presentTranslationSettings } from './translation.presenter.ts';

async function findOrThrow(em: EntityManager, organizationId: string, id: string): Promise<ITranslationSettings> {
  const t = await em.findOne(TranslationSettings, { id, organizationId });
  if (!t) throw notFound('Translation settings');
  return t;
}

export const translationProcedures = {
  listTranslations: implement(ops.listTranslations, async ({ input, ctx }) => {
    const permissions = translationPolicy.permissions(translationPolicy.assert(ctx.actor, input, 'view'));
    return paginate(ctx.em, TranslationSettings, { organizationId: input.organizationId }, { createdAt: 'asc', id: 'asc' }, input, (t) => presentTranslationSettings(ctx, t, permissions));
  }),

  createTranslation: implement(ops.createTranslation, async ({ input, ctx }) => {
    const permissions = translationPolicy.permissions(translationPolicy.assert(ctx.actor, input, 'edit'));
    return presentTranslationSettings(ctx, translationCreator(ctx.em, input), permissions);
  }),

  getTranslation: implement(ops.getTranslation, async ({ input, ctx }) => {
    const permissions = translationPolicy.permissions(translationPolicy.assert(ctx.actor, input, 'view'));
    return presentTranslationSettings(ctx, await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId), permissions);
  }),

  updateTranslation: implement(ops.updateTranslation, async ({ input, ctx }) => {
    const permissions = translationPolicy.permissions(translationPolicy.assert(ctx.actor, input, 'edit'));
    const settings = await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId);
    return presentTranslationSettings(ctx, translationUpdater(ctx.em, { ...input, settings }), permissions);
  }),

  deleteTranslation: implement(ops.deleteTranslation, async ({ input, ctx }) => {
    translationPolicy.assert(ctx.actor, input, 'edit');
    translationDeleter(ctx.em, { settings: await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId) });
  }),
};
