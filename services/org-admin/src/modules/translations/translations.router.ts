import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { translationCreator, translationDeleter, translationUpdater } from '../../commands/translation-writer.ts';
import { TranslationSettings } from './translation-settings.entity.ts';
import { authorizeTranslations, loadTranslationFor } from './translation.loader.ts';
import { presentTranslationSettings } from './translation.presenter.ts';

export const translationProcedures = {
  listTranslations: implement(ops.listTranslations, async ({ input, ctx }) => {
    const permissions = authorizeTranslations(ctx, input, 'view');
    return paginate(
      ctx.em,
      TranslationSettings,
      { organizationId: input.organizationId },
      { createdAt: 'asc', id: 'asc' },
      input,
      (t) => presentTranslationSettings(ctx, t, permissions),
    );
  }),

  createTranslation: implement(ops.createTranslation, async ({ input, ctx }) => {
    const permissions = authorizeTranslations(ctx, input, 'edit');
    return presentTranslationSettings(ctx, translationCreator(ctx.em, input), permissions);
  }),

  getTranslation: implement(ops.getTranslation, async ({ input, ctx }) => {
    const { settings, permissions } = await loadTranslationFor(ctx, input, 'view');
    return presentTranslationSettings(ctx, settings, permissions);
  }),

  updateTranslation: implement(ops.updateTranslation, async ({ input, ctx }) => {
    const { settings, permissions } = await loadTranslationFor(ctx, input, 'edit');
    return presentTranslationSettings(ctx, translationUpdater(ctx.em, { ...input, settings }), permissions);
  }),

  deleteTranslation: implement(ops.deleteTranslation, async ({ input, ctx }) => {
    const { settings } = await loadTranslationFor(ctx, input, 'edit');
    translationDeleter(ctx.em, { settings });
  }),
};
