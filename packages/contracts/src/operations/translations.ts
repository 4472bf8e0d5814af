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

export const listTranslations = translations.list({
  operationId: 'listTranslations',
  summary: 'List the translation settings of an organization',
});

export const createTranslation = translations.create(
  { title: TranslationTitleSchema, languages: TranslationLanguagesSchema.optional() },
  { operationId: 'createTranslation', summary: 'Create translation settings' },
);

export const getTranslation = translations.get({ operationId: 'getTranslation', summary: 'Get translation settings' });

export const updateTranslation = translations.update(
  {
    title: TranslationTitleSchema,
    languages: TranslationLanguagesSchema.optional().describe('Target languages (unchanged when absent)'),
  },
  { method: 'PUT', operationId: 'updateTranslation', summary: 'Update translation settings' },
);

export const deleteTranslation = translations.delete({
  status: 205,
  operationId: 'deleteTranslation',
  summary: 'Delete translation settings',
});
