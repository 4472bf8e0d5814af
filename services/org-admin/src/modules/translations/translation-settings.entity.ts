import { p, type InferEntity } from '@mikro-orm/core';
import { defineTable, idColumn, timestampColumns } from '@quire/kit';
import type { TranslationSettings as TranslationSettingsDto } from '@quire/contracts';

export const TranslationSettings = defineTable('TranslationSettings', 'translation_settings', {
  ...idColumn(),
  organizationId: p.string(),
  title: p.string(),
  languages: p.json<TranslationSettingsDto['languages']>(),
  ...timestampColumns(),
});
export type ITranslationSettings = InferEntity<typeof TranslationSettings>;
