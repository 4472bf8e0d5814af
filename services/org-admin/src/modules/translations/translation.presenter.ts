import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { ITranslationSettings } from './translation-settings.entity.ts';

export function presentTranslationSettings(
  ctx: { urls: PublicUrls },
  t: ITranslationSettings,
  permissions: TranslationSettingsDto['permissions'],
): TranslationSettingsDto {
  return {
    object: 'translation-settings',
    id: t.id,
    title: t.title,
    languages: t.languages,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    permissions,
    urls: { location: ctx.urls.api(`/orgs/${t.organizationId}/translations/${t.id}`) },
  };
}
