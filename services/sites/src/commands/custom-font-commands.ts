import { DomainError, type BlobStore, type EntityManager } from '@quire/kit';
import {
  customFontRepository,
  storageFileRepository,
  type CustomFontRow,
  type FontFormat,
  type StorageFile,
} from '../modules/fonts/custom-font.repository.ts';
import { FONT_FORMATS } from '../modules/fonts/font-file.ts';
import type { UploadClaims } from '../modules/fonts/storage-upload.ts';

/** Stores the bytes of an upload (in the blob store, by their SHA-256) under the URL's key; 409 when used twice. */
export async function storageFileStorer(
  em: EntityManager,
  props: { blobs: BlobStore; claims: UploadClaims; bytes: Buffer; format: FontFormat; now?: Date },
): Promise<StorageFile> {
  const { key: blobKey, size } = await props.blobs.put(props.bytes, FONT_FORMATS[props.format].type);
  const file: StorageFile = {
    key: props.claims.k,
    organizationId: props.claims.o,
    kind: 'customization_font',
    name: props.claims.n,
    blobKey,
    format: props.format,
    size,
    createdBy: props.claims.u,
    createdAt: props.now ?? new Date(),
  };
  if (!(await storageFileRepository.insert(em, file)))
    throw new DomainError('conflict', 'A file was already uploaded to this URL: ask for a new one');
  return file;
}

/** Writes a new custom font. */
export async function customFontCreator(em: EntityManager, { font }: { font: CustomFontRow }): Promise<CustomFontRow> {
  await customFontRepository.insert(em, font);
  return font;
}

/** Writes a custom font's new name and faces. */
export async function customFontUpdater(em: EntityManager, { font }: { font: CustomFontRow }): Promise<CustomFontRow> {
  await customFontRepository.update(em, font);
  return font;
}

/** Deletes a custom font (its files stay stored; they are served while a font names them). */
export async function customFontDeleter(em: EntityManager, { font }: { font: CustomFontRow }): Promise<void> {
  await customFontRepository.delete(em, font.organizationId, font.id);
}

/** Drops a deleted organization's custom fonts and uploaded files (the blobs stay: other rows may share them). */
export async function organizationFontsDropper(em: EntityManager, { organizationId }: { organizationId: string }) {
  await customFontRepository.deleteOrganization(em, organizationId);
  await storageFileRepository.deleteOrganization(em, organizationId);
}
