import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';
import type { ITranslationSettings } from './translation-settings.entity.ts';
import type { TranslationPermissions } from './translation.policy.ts';

export function presentTranslationSettings(t: ITranslationSettings, permissions: TranslationPermissions, publicUrl: string): TranslationSettingsDto {
  return {
    object: 'translation-settings',
    id: t.id,
    title: t.title,
    languages: t.languages,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    permissions,
    urls: { location: `${publicUrl}/v1/orgs/${t.organizationId}/translations/${t.id}` },
  };
}
