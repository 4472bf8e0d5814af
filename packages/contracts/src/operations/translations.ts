import { z } from 'zod';
import { listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, translationSettingsId } from '../params.ts';
import {
  TranslationLanguagesSchema,
  TranslationSettingsSchema,
  TranslationTitleSchema,
} from '../schemas/translation.ts';

const op = operationsOf('org-admin', { tags: ['translations'] });

export const listTranslations = op({
  id: 'translations.list',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(TranslationSettingsSchema),
  http: {
    route: 'GET /orgs/{organizationId}/translations',
    operationId: 'listTranslations',
    summary: 'List the translation settings of an organization',
  },
});

export const createTranslation = op({
  id: 'translations.create',
  input: z.object({ organizationId, title: TranslationTitleSchema, languages: TranslationLanguagesSchema.optional() }),
  output: TranslationSettingsSchema,
  http: {
    route: 'POST /orgs/{organizationId}/translations',
    status: 201,
    operationId: 'createTranslation',
    summary: 'Create translation settings',
  },
});

export const getTranslation = op({
  id: 'translations.get',
  input: z.object({ organizationId, translationSettingsId }),
  output: TranslationSettingsSchema,
  http: {
    route: 'GET /orgs/{organizationId}/translations/{translationSettingsId}',
    operationId: 'getTranslation',
    summary: 'Get translation settings',
  },
});

export const updateTranslation = op({
  id: 'translations.update',
  input: z.object({
    organizationId,
    translationSettingsId,
    title: TranslationTitleSchema,
    languages: TranslationLanguagesSchema.optional().describe('Target languages (unchanged when absent)'),
  }),
  output: TranslationSettingsSchema,
  http: {
    route: 'PUT /orgs/{organizationId}/translations/{translationSettingsId}',
    operationId: 'updateTranslation',
    summary: 'Update translation settings',
  },
});

export const deleteTranslation = op({
  id: 'translations.delete',
  input: z.object({ organizationId, translationSettingsId }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/translations/{translationSettingsId}',
    status: 205,
    operationId: 'deleteTranslation',
    summary: 'Delete translation settings',
  },
});
