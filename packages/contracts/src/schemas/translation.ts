import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { objectAndId } from './shapes.ts';

/** GitBook's `TranslationLanguage`. */
export const TRANSLATION_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export const TranslationLanguageSchema = z.enum(TRANSLATION_LANGUAGES).describe('Language code');
export const TranslationLanguagesSchema = z
  .array(TranslationLanguageSchema)
  .max(TRANSLATION_LANGUAGES.length)
  .refine((l) => new Set(l).size === l.length, 'must not repeat a language')
  .describe('Target languages');
export const TranslationTitleSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('Title of the translation settings (1..100)');

export const TranslationSettingsSchema = z
  .object({
    ...objectAndId('translation-settings', 'translation settings'),
    title: z.string().describe('Title of the translation settings'),
    languages: z.array(TranslationLanguageSchema).describe('Target languages'),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    permissions: z
      .object({
        view: z.boolean().describe('Can the caller view the settings'),
        edit: z.boolean().describe('Can the caller edit the settings'),
      })
      .describe('What the caller may do with the settings'),
    urls: z.object({ location: UrlSchema.describe('URL of the translation settings in the API') }),
  })
  .describe('TranslationSettings');
export type TranslationSettings = z.infer<typeof TranslationSettingsSchema>;
