import { ops } from '@quire/contracts';
import { newId, notFound, paginate, type EntityManager } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { TranslationSettings, type ITranslationSettings } from './translation-settings.entity.ts';
import { assertCanEditTranslations, assertCanViewTranslations } from './translation.policy.ts';
import { presentTranslationSettings } from './translation.presenter.ts';

async function findOrThrow(em: EntityManager, organizationId: string, id: string): Promise<ITranslationSettings> {
  const t = await em.findOne(TranslationSettings, { id, organizationId });
  if (!t) throw notFound('Translation settings');
  return t;
}

export const translationProcedures = {
  listTranslations: implement(ops.listTranslations, async ({ input, ctx }) => {
    const permissions = assertCanViewTranslations(ctx.actor, input.organizationId);
    return paginate(ctx.em, TranslationSettings, { organizationId: input.organizationId }, { createdAt: 'asc', id: 'asc' }, input, (t) =>
      presentTranslationSettings(t, permissions, ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  createTranslation: implement(ops.createTranslation, async ({ input, ctx }) => {
    const permissions = assertCanEditTranslations(ctx.actor, input.organizationId);
    const now = new Date();
    const t = ctx.em.create(TranslationSettings, { id: newId(), organizationId: input.organizationId, title: input.title, languages: input.languages ?? [], createdAt: now, updatedAt: now });
    await ctx.em.flush();
    return presentTranslationSettings(t, permissions, ctx.config.QUIRE_PUBLIC_URL);
  }),

  getTranslation: implement(ops.getTranslation, async ({ input, ctx }) => {
    const permissions = assertCanViewTranslations(ctx.actor, input.organizationId);
    return presentTranslationSettings(await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId), permissions, ctx.config.QUIRE_PUBLIC_URL);
  }),

  updateTranslation: implement(ops.updateTranslation, async ({ input, ctx }) => {
    const permissions = assertCanEditTranslations(ctx.actor, input.organizationId);
    const t = await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId);
    t.title = input.title;
    if (input.languages !== undefined) t.languages = input.languages;
    t.updatedAt = new Date();
    await ctx.em.flush();
    return presentTranslationSettings(t, permissions, ctx.config.QUIRE_PUBLIC_URL);
  }),

  deleteTranslation: implement(ops.deleteTranslation, async ({ input, ctx }) => {
    assertCanEditTranslations(ctx.actor, input.organizationId);
    ctx.em.remove(await findOrThrow(ctx.em, input.organizationId, input.translationSettingsId));
    await ctx.em.flush();
  }),
};
