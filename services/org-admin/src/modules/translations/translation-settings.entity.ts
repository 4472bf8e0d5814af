import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';

export const TranslationSettings = defineEntity({
  name: 'TranslationSettings',
  tableName: 'translation_settings',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    title: p.string(),
    languages: p.json<TranslationSettingsDto['languages']>(),
    ...timestampColumns(),
  },
});
export type ITranslationSettings = InferEntity<typeof TranslationSettings>;
