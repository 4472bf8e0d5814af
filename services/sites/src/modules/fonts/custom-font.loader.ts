import { CUSTOM_FONTS_MAX, FONT_FILE_MAX_BYTES, type OperationInput, type ops } from '@quire/contracts';
import { DomainError, invalid, newId, notFound, type AccessLevel, type StoredBlob } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { customFontPolicy, type CustomFontAction } from './custom-font.policy.ts';
import {
  customFontRepository,
  storageFileRepository,
  type CustomFontFace,
  type CustomFontRow,
  type FontFormat,
  type StorageFile,
} from './custom-font.repository.ts';
import type { FontDefinition } from '../../commands/custom-font-commands.ts';
import { fontDefinition } from './custom-font.presenter.ts';
import { fontFormatOf } from './font-file.ts';
import { verifyUpload, type UploadClaims } from './storage-upload.ts';

type Ctx = Pick<SitesContext, 'em' | 'actor'>;

/** Fonts with the files their faces name, and the caller's level on them. */
export interface LoadedFonts {
  fonts: CustomFontRow[];
  files: Map<string, StorageFile>;
  level: AccessLevel | null;
}

const userIdOf = (ctx: Ctx) => (ctx.actor.kind === 'user' ? ctx.actor.userId : null);

/** The organization's custom fonts, for a member (`view`). */
export async function loadCustomFonts(ctx: Ctx, organizationId: string): Promise<LoadedFonts> {
  const level = customFontPolicy.assert(ctx.actor, { organizationId }, 'view');
  const fonts = await customFontRepository.listIn(ctx.em, organizationId);
  const keys = fonts.flatMap((f) => f.faces.map((face) => face.storageKey));
  return { fonts, files: await storageFileRepository.findIn(ctx.em, organizationId, keys), level };
}

/** One custom font the caller may `action` on (404 when the organization has none with this id). */
export async function loadCustomFontFor(
  ctx: Ctx,
  input: { organizationId: string; fontId: string },
  action: CustomFontAction,
): Promise<LoadedFonts & { font: CustomFontRow }> {
  const level = customFontPolicy.assert(ctx.actor, input, action);
  const font = await customFontRepository.findIn(ctx.em, input.organizationId, input.fontId);
  if (!font) throw notFound('Font');
  const keys = font.faces.map((f) => f.storageKey);
  return { font, fonts: [font], files: await storageFileRepository.findIn(ctx.em, input.organizationId, keys), level };
}

/**
 * The faces a create or an update sets, checked: one face per weight, each naming a font file uploaded to the
 * organization (412 otherwise, as GitBook answers), the weight 400 among the faces of the result (412).
 */
async function checkedFaces(
  ctx: Ctx,
  organizationId: string,
  faces: CustomFontFace[],
): Promise<{ faces: CustomFontFace[]; files: Map<string, StorageFile> }> {
  const weights = new Set(faces.map((f) => f.weight));
  if (weights.size !== faces.length) throw invalid('Invalid request: fontFaces: each weight may be given once');
  const files = await storageFileRepository.findIn(
    ctx.em,
    organizationId,
    faces.map((f) => f.storageKey),
  );
  const missing = faces.find((f) => !files.has(f.storageKey));
  if (missing)
    throw new DomainError(
      'precondition_failed',
      `No font file was uploaded under the storage key ${JSON.stringify(missing.storageKey.slice(0, 100))}`,
    );
  if (!weights.has(400))
    throw new DomainError('precondition_failed', 'A custom font needs a face of weight 400 (regular)');
  return { faces: [...faces].sort((a, b) => a.weight - b.weight), files };
}

/** What `createCustomFont` writes: a new font of the organization, its faces checked (org admins only). */
export async function loadFontToCreate(
  ctx: Ctx,
  input: OperationInput<typeof ops.createCustomFont>,
): Promise<{ font: CustomFontRow; files: Map<string, StorageFile>; level: AccessLevel | null }> {
  const level = customFontPolicy.assert(ctx.actor, input, 'edit');
  if ((await customFontRepository.count(ctx.em, input.organizationId)) >= CUSTOM_FONTS_MAX)
    throw new DomainError('conflict', `An organization may have at most ${CUSTOM_FONTS_MAX} custom fonts`);
  const { faces, files } = await checkedFaces(ctx, input.organizationId, input.fontFaces);
  const now = new Date();
  const font = {
    id: newId(),
    organizationId: input.organizationId,
    fontFamily: input.fontFamily,
    faces,
    createdAt: now,
    updatedAt: now,
  };
  return { font, files, level };
}

/** What `updateCustomFont` writes: the font renamed, faces set by weight (a null storage key removes one). */
export async function loadFontToUpdate(
  ctx: Ctx & Pick<SitesContext, 'urls'>,
  input: OperationInput<typeof ops.updateCustomFont>,
): Promise<{
  font: CustomFontRow;
  previous: CustomFontRow;
  definition: FontDefinition;
  files: Map<string, StorageFile>;
  level: AccessLevel | null;
}> {
  const { font, level } = await loadCustomFontFor(ctx, input, 'edit');
  const byWeight = new Map(font.faces.map((f) => [f.weight, f.storageKey]));
  for (const face of input.fontFaces ?? []) {
    if (face.storageKey === null) byWeight.delete(face.weight);
    else byWeight.set(face.weight, face.storageKey);
  }
  const wanted = [...byWeight].map(([weight, storageKey]) => ({ weight, storageKey }));
  const { faces, files } = await checkedFaces(ctx, input.organizationId, wanted);
  const updated = { ...font, fontFamily: input.fontFamily ?? font.fontFamily, faces, updatedAt: new Date() };
  return { font: updated, previous: font, definition: fontDefinition(ctx.urls, updated, files), files, level };
}

const EXTENSIONS = /\.(woff2|woff|ttf|otf)$/i;

/**
 * What a signed upload URL will let the caller store (`generateStorageUploadURL`): a font file (`customization_font`,
 * the only kind Quire stores) of a font's name and at most 2 MiB, for an organization admin.
 */
export function loadUploadGrant(ctx: Ctx, input: OperationInput<typeof ops.generateStorageUploadURL>): UploadClaims {
  customFontPolicy.assert(ctx.actor, input, 'edit');
  if (input.kind !== 'customization_font')
    throw invalid('Invalid request: kind: Quire stores `customization_font` uploads only');
  if (input.file.size > FONT_FILE_MAX_BYTES)
    throw new DomainError('payload_too_large', `A font file may hold at most ${FONT_FILE_MAX_BYTES} bytes (2 MiB)`);
  const ext = EXTENSIONS.exec(input.file.name)?.[1]?.toLowerCase();
  if (!ext) throw invalid('Invalid request: file.name: a font file is a .woff2, .woff, .ttf or .otf file');
  const key = `${input.organizationId}/fonts/${newId()}.${ext}`;
  return { o: input.organizationId, k: key, n: input.file.name, s: input.file.size, u: userIdOf(ctx) };
}

/** The file a signed upload URL brings (`PUT` to it): its token checked (410 when expired), its bytes a font. */
export async function loadUploadedFile(
  ctx: Pick<SitesContext, 'config'>,
  input: OperationInput<typeof ops.uploadStorageFile>,
): Promise<{ claims: UploadClaims; bytes: Buffer; format: FontFormat }> {
  const claims = await verifyUpload(ctx.config.QUIRE_INTERNAL_SECRET, input.token);
  if (claims === 'expired') throw new DomainError('gone', 'This upload URL has expired: ask for a new one');
  if (claims === 'invalid') throw new DomainError('forbidden', 'This is not a valid upload URL');
  const bytes = Buffer.from(input.body, 'base64');
  if (bytes.length > claims.s || bytes.length > FONT_FILE_MAX_BYTES)
    throw new DomainError(
      'payload_too_large',
      `This upload URL takes at most ${Math.min(claims.s, FONT_FILE_MAX_BYTES)} bytes`,
    );
  const format = fontFormatOf(bytes);
  if (!format) throw invalid('Invalid request: body: not a font file (WOFF2, WOFF, TrueType or OpenType)');
  return { claims, bytes, format };
}

/** A custom font's file as the pages load it (null unless a custom font names a file with these bytes). */
export async function loadFontFile(
  ctx: Pick<SitesContext, 'em' | 'blobs'>,
  blobKey: string,
): Promise<{ file: StorageFile; blob: StoredBlob } | null> {
  const file = await storageFileRepository.findServed(ctx.em, blobKey);
  const blob = file ? await ctx.blobs.get(file.blobKey) : null;
  return file && blob ? { file, blob } : null;
}
