import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { TranslationLanguagesSchema, TranslationSettingsSchema, TranslationTitleSchema } from '../schemas/translation.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const translationSettingsId = IdSchema.describe('The unique id of the translation settings');
const tags = ['translations'];

export const listTranslations = defineOperation({
  id: 'translations.list',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(TranslationSettingsSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/translations', status: 200, operationId: 'listTranslations', summary: 'List the translation settings of an organization', tags },
});

export const createTranslation = defineOperation({
  id: 'translations.create',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, title: TranslationTitleSchema, languages: TranslationLanguagesSchema.optional() }),
  output: TranslationSettingsSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/translations', status: 201, operationId: 'createTranslation', summary: 'Create translation settings', tags },
});

export const getTranslation = defineOperation({
  id: 'translations.get',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, translationSettingsId }),
  output: TranslationSettingsSchema,
  http: { method: 'GET', path: '/orgs/{organizationId}/translations/{translationSettingsId}', status: 200, operationId: 'getTranslation', summary: 'Get translation settings', tags },
});

export const updateTranslation = defineOperation({
  id: 'translations.update',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    translationSettingsId,
    title: TranslationTitleSchema,
    languages: TranslationLanguagesSchema.optional().describe('Target languages (unchanged when absent)'),
  }),
  output: TranslationSettingsSchema,
  http: { method: 'PUT', path: '/orgs/{organizationId}/translations/{translationSettingsId}', status: 200, operationId: 'updateTranslation', summary: 'Update translation settings', tags },
});

export const deleteTranslation = defineOperation({
  id: 'translations.remove',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, translationSettingsId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/orgs/{organizationId}/translations/{translationSettingsId}', status: 205, operationId: 'deleteTranslation', summary: 'Delete translation settings', tags },
});
