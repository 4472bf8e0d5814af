import { operationsOf } from '../operation.ts';
import { translationSettingsId } from '../params.ts';
import {
  TranslationLanguagesSchema,
  TranslationSettingsSchema,
  TranslationTitleSchema,
} from '../schemas/translation.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

const translations = resourceOps(operationsOf('org-admin', { tags: ['translations'] }), {
  noun: 'translations',
  in: ORGANIZATION,
  param: { translationSettingsId },
  item: TranslationSettingsSchema,
});

export const listTranslations = translations.list(
  'listTranslations',
  'List the translation settings of an organization',
);

export const createTranslation = translations.create('createTranslation', 'Create translation settings', {
  title: TranslationTitleSchema,
  languages: TranslationLanguagesSchema.optional(),
});

export const getTranslation = translations.get('getTranslation', 'Get translation settings');

export const updateTranslation = translations.update(
  'updateTranslation',
  'Update translation settings',
  {
    title: TranslationTitleSchema,
    languages: TranslationLanguagesSchema.optional().describe('Target languages (unchanged when absent)'),
  },
  'PUT',
);

export const deleteTranslation = translations.delete('deleteTranslation', 'Delete translation settings', 205);
