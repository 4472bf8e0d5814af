import type { CustomFont } from '@quire/contracts';
import type { AccessLevel, PublicUrls } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { customFontPolicy } from './custom-font.policy.ts';
import type { FontDefinition } from '../../commands/custom-font-commands.ts';
import type { CustomFontRow, StorageFile } from './custom-font.repository.ts';
import { FONT_FILES_PATH, FONT_FORMATS } from './font-file.ts';
import { UPLOAD_TTL_MS, UPLOADS_PATH, uploadSigner, type UploadClaims } from './storage-upload.ts';

/** The URL a custom font's file is served at, on the instance's origin (content-addressed: it never changes). */
export const fontFileUrl = (urls: PublicUrls, file: StorageFile): string =>
  urls.page(`${FONT_FILES_PATH}${file.blobKey}.${FONT_FORMATS[file.format].ext}`);

/** A custom font as a site's customization keeps it (GitBook's `CustomizationFontDefinitionInput`): each face's file at its URL. */
export function fontDefinition(urls: PublicUrls, font: CustomFontRow, files: Map<string, StorageFile>): FontDefinition {
  return {
    id: font.id,
    custom: true,
    fontFamily: font.fontFamily,
    fontFaces: font.faces.flatMap((face) => {
      const file = files.get(face.storageKey);
      if (!file) return [];
      const format = file.format === 'woff2' || file.format === 'woff' ? { format: file.format } : {};
      return [{ weight: face.weight, sources: [{ url: fontFileUrl(urls, file), ...format }] }];
    }),
  };
}

/** A custom font as GitBook's `CustomizationFontDefinition`: its definition and the caller's `edit`. */
export function presentCustomFont(
  ctx: Pick<SitesContext, 'urls'>,
  font: CustomFontRow,
  files: Map<string, StorageFile>,
  level: AccessLevel | null,
): CustomFont {
  return { ...fontDefinition(ctx.urls, font, files), permissions: customFontPolicy.permissions(level) };
}

/** The signed URL an upload goes to (`PUT`), working for 15 minutes, and the storage key the file gets. */
export async function presentUploadUrl(
  ctx: Pick<SitesContext, 'urls' | 'config'>,
  claims: UploadClaims,
  now = Date.now(),
): Promise<{ object: 'storage-signed-url'; url: string; key: string }> {
  const token = await uploadSigner(ctx.config.QUIRE_INTERNAL_SECRET).sign(claims, now + UPLOAD_TTL_MS);
  return { object: 'storage-signed-url', url: ctx.urls.page(`${UPLOADS_PATH}${token}`), key: claims.k };
}

/** A font file's bytes for the gateway (base64), or `found: false`. */
export function presentFontFile(loaded: { file: StorageFile; blob: { bytes: Buffer } } | null) {
  return loaded
    ? { found: true, contentType: FONT_FORMATS[loaded.file.format].type, body: loaded.blob.bytes.toString('base64') }
    : { found: false, contentType: '', body: '' };
}
