import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';

export const TranslationSettings = defineEntity({
  name: 'TranslationSettings',
  tableName: 'translation_settings',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    title: p.string(),
    languages: p.json<TranslationSettingsDto['languages']>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ITranslationSettings = InferEntity<typeof TranslationSettings>;
