import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  CustomFontSchema,
  FONT_FILE_MAX_BYTES,
  FontFamilySchema,
  FontWeightSchema,
  StorageFileKeySchema,
  StorageUploadUrlSchema,
} from '../schemas/custom-font.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

/**
 * Custom fonts (GitBook's `custom-fonts` and `storage` tags): a font file is uploaded to a signed, expiring URL
 * (`generateStorageUploadURL`), then named by its storage key in a custom font of the organization, which a site's
 * customization can choose (`styling.font`). Sites owns them: its published pages serve the files.
 */
const op = operationsOf('sites', { tags: ['custom-fonts'] });

const fonts = resourceOps(op, {
  noun: 'customFonts',
  in: ORGANIZATION,
  path: 'fonts',
  param: { fontId: IdSchema.describe('The unique ID of a font') },
  item: CustomFontSchema,
});

export const listCustomFonts = fonts.list('listCustomFonts', 'List all custom fonts of the organization');

export const createCustomFont = fonts.create(
  'createCustomFont',
  'Create a custom font from uploaded files (a face of weight 400 is required)',
  {
    fontFamily: FontFamilySchema,
    fontFaces: z
      .array(z.object({ weight: FontWeightSchema, storageKey: StorageFileKeySchema }))
      .min(1)
      .max(20)
      .describe('The font faces: a weight and the storage key of its uploaded file; at least the weight 400'),
  },
  'PUT',
);

export const getCustomFont = fonts.get('getCustomFont', 'Get a custom font by its ID');

export const updateCustomFont = op({
  id: 'customFonts.update',
  input: z.object({
    organizationId,
    fontId: IdSchema.describe('The unique ID of a font'),
    fontFamily: FontFamilySchema.optional(),
    fontFaces: z
      .array(z.object({ weight: FontWeightSchema, storageKey: StorageFileKeySchema.nullable() }))
      .max(20)
      .optional()
      .describe('Faces to set, by weight: a storage key sets that weight, null removes it'),
  }),
  output: CustomFontSchema,
  http: {
    route: 'POST /orgs/{organizationId}/fonts/{fontId}',
    status: 201,
    operationId: 'updateCustomFont',
    summary: 'Rename a custom font, or set or remove its faces (the weight 400 stays)',
  },
});

export const deleteCustomFont = fonts.delete(
  'deleteCustomFont',
  'Delete a custom font (sites that chose it draw the default font again)',
  205,
);

export const generateStorageUploadURL = op({
  id: 'storageUploads.create',
  input: z.object({
    organizationId,
    file: z
      .object({
        name: z.string().min(1).max(255).describe('Original filename'),
        type: z.string().max(255).describe('MIME type of the file'),
        size: z.number().int().min(1).describe(`Size of the file in bytes (at most ${FONT_FILE_MAX_BYTES} for a font)`),
      })
      .describe('StorageFileMetadata'),
    kind: z
      .enum(['customization_font', 'import_file', 'organization_file'])
      .describe('StorageUploadKind: Quire stores `customization_font` files'),
  }),
  output: StorageUploadUrlSchema,
  http: {
    route: 'POST /orgs/{organizationId}/storage/upload',
    status: 201,
    operationId: 'generateStorageUploadURL',
    tags: ['storage'],
    summary: 'Create a signed URL to upload a file (a font: woff2, woff, ttf or otf, at most 2 MiB)',
  },
});

/** gateway → sites: the bytes `PUT` to a signed upload URL (`/v1/storage/uploads/{token}`). */
export const uploadStorageFile = op({
  id: 'storageUploads.createFile',
  access: 'internal',
  type: 'mutation',
  input: z.object({
    token: z.string().min(1).max(2048).describe('The token of the signed URL'),
    body: z
      .base64()
      .max(Math.ceil(FONT_FILE_MAX_BYTES / 3) * 4)
      .describe('The bytes of the file, base64'),
  }),
  output: z.object({ key: z.string().describe('The storage key of the file') }),
});

/** gateway → sites: a custom font's file (`/_quire/fonts/files/{sha256}.{ext}`), when a custom font names it. */
export const getCustomFontFile = op({
  id: 'customFontFiles.get',
  access: 'internal',
  input: z.object({
    blobKey: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('The SHA-256 of the file'),
  }),
  output: z.object({
    found: z.boolean(),
    contentType: z.string(),
    body: z.string().describe('The bytes, base64'),
  }),
});
