import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';
import { notFound } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { TranslationSettings, type ITranslationSettings } from './translation-settings.entity.ts';
import { translationPolicy } from './translation.policy.ts';

type Ctx = Pick<UserContext, 'em' | 'actor'>;
type Action = keyof typeof translationPolicy.actions;

/** The caller may `action` on the organization's translation settings: their `permissions` for the caller. */
export function authorizeTranslations(
  ctx: Pick<UserContext, 'actor'>,
  ids: { organizationId: string },
  action: Action,
): TranslationSettingsDto['permissions'] {
  return translationPolicy.permissions(translationPolicy.assert(ctx.actor, ids, action));
}

/** The translation settings the caller may `action` on, and their `permissions` (404 when there are none). */
export async function loadTranslationFor(
  ctx: Ctx,
  ids: { organizationId: string; translationSettingsId: string },
  action: Action,
): Promise<{ settings: ITranslationSettings; permissions: TranslationSettingsDto['permissions'] }> {
  const permissions = authorizeTranslations(ctx, ids, action);
  const settings = await ctx.em.findOne(TranslationSettings, {
    id: ids.translationSettingsId,
    organizationId: ids.organizationId,
  });
  if (!settings) throw notFound('Translation settings');
  return { settings, permissions };
}
