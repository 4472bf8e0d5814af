import { z } from 'zod';
import { permissionsOf } from './shapes.ts';

/** The most bytes of one uploaded font file. */
export const FONT_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** The most custom fonts of one organization. */
export const CUSTOM_FONTS_MAX = 100;

export const FontFamilySchema = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[^"\\<>\n\r;{}]+$/, 'letters, digits, spaces and punctuation other than " \\ < > ; { }')
  .describe('FontFamily: the CSS font-family name (e.g. "Open Sans")');
export const FontWeightSchema = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .describe('FontWeight: 400 = regular, 500 = medium, 700 = bold, 900 = black');
export const StorageFileKeySchema = z
  .string()
  .min(1)
  .max(512)
  .describe('StorageFileKey: the path of the file in the storage (from `generateStorageUploadURL`)');

export const CustomFontSchema = z
  .object({
    id: z.string().describe('A globally unique identifier for the font definition'),
    custom: z.boolean().describe('Whether the font is a custom font (always true here)'),
    fontFamily: FontFamilySchema,
    fontFaces: z
      .array(
        z
          .object({
            weight: FontWeightSchema,
            sources: z
              .array(
                z.object({
                  url: z.string().describe("The font file's URL, on the instance's own origin"),
                  format: z
                    .enum(['woff2', 'woff'])
                    .optional()
                    .describe('The format of the file (none: TrueType or OpenType)'),
                }),
              )
              .min(1),
          })
          .describe('FontFace'),
      )
      .min(1)
      .describe('The font faces, by weight'),
    permissions: permissionsOf('The set of permissions for the font definition', {
      edit: 'Can the user edit the font definition',
    }),
  })
  .describe('CustomizationFontDefinition');
export type CustomFont = z.infer<typeof CustomFontSchema>;

export const StorageUploadUrlSchema = z
  .object({
    object: z.literal('storage-signed-url'),
    url: z.string().describe('The signed URL to `PUT` the bytes of the file to (works for 15 minutes)'),
    key: z.string().describe('The storage key of the file, once uploaded'),
  })
  .describe('StorageUploadURL');
