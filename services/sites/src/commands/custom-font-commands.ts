import { blobKeyOf, DomainError, type BlobStore, type EntityManager } from '@quire/kit';
import {
  customFontRepository,
  fontChoiceRepository,
  storageFileRepository,
  type CustomFontRow,
  type FontFormat,
  type StorageFile,
} from '../modules/fonts/custom-font.repository.ts';
import { FONT_FORMATS } from '../modules/fonts/font-file.ts';
import type { UploadClaims } from '../modules/fonts/storage-upload.ts';
import { siteRepository } from '../modules/sites/site.repository.ts';
import { siteChanged } from './structure-helpers.ts';

/** Stores the bytes of an upload (in the blob store, by their SHA-256) under the URL's key; 409 when used twice. */
export async function storageFileStorer(
  em: EntityManager,
  props: { blobs: BlobStore; claims: UploadClaims; bytes: Buffer; format: FontFormat; now?: Date },
): Promise<StorageFile> {
  // Under the bytes' lock: the sweep cannot remove them between their storing and the file that names them.
  await storageFileRepository.lockBlob(em, blobKeyOf(props.bytes));
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

/**
 * Writes a custom font's new name and faces; the files of the faces it no longer has go when no font names them
 * (their bytes queued for the sweep), and every site that chose the font follows it (`sitesFollowingFont`).
 */
export async function customFontUpdater(
  em: EntityManager,
  props: { font: CustomFontRow; previous: CustomFontRow; definition: FontDefinition; now?: Date },
): Promise<CustomFontRow> {
  const { font, previous, now = new Date() } = props;
  await customFontRepository.update(em, font);
  const kept = new Set(font.faces.map((f) => f.storageKey));
  const dropped = previous.faces.map((f) => f.storageKey).filter((k) => !kept.has(k));
  await storageFileRepository.dropUnnamed(em, font.organizationId, dropped, now);
  await sitesFollowingFont(em, {
    organizationId: font.organizationId,
    fontId: font.id,
    definition: props.definition,
    now,
  });
  return font;
}

/**
 * Deletes a custom font; its files go when no other font names them (their bytes queued for the sweep), and the
 * sites that chose it fall back to the default font (`sitesFollowingFont`).
 */
export async function customFontDeleter(
  em: EntityManager,
  { font, now = new Date() }: { font: CustomFontRow; now?: Date },
): Promise<void> {
  await customFontRepository.delete(em, font.organizationId, font.id);
  await storageFileRepository.dropUnnamed(
    em,
    font.organizationId,
    font.faces.map((f) => f.storageKey),
    now,
  );
  await sitesFollowingFont(em, { organizationId: font.organizationId, fontId: font.id, definition: null, now });
}

/** Drops a deleted organization's custom fonts and uploaded files (their bytes queued for the sweep). */
export async function organizationFontsDropper(
  em: EntityManager,
  { organizationId, now = new Date() }: { organizationId: string; now?: Date },
) {
  await customFontRepository.deleteOrganization(em, organizationId);
  await storageFileRepository.dropOrganization(em, organizationId, now);
}

/** A custom font as a site's customization keeps it (GitBook's `CustomizationFontDefinitionInput`). */
export interface FontDefinition {
  id: string;
  custom: boolean;
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: 'woff2' | 'woff' }[] }[];
}

const FONT_FIELDS = ['font', 'headingFont', 'monospaceFont'] as const;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A customization (or a site space's overrides) with each of its fonts that is the custom font `fontId` replaced by
 * `definition`, or removed when the font is gone (the default font, or the site's, applies again); null when it
 * has none of them.
 */
export function followingFont(customization: unknown, fontId: string, definition: FontDefinition | null): Json | null {
  if (!isObject(customization) || !isObject(customization.styling)) return null;
  const styling: Json = { ...customization.styling };
  let changed = false;
  for (const field of FONT_FIELDS) {
    const chosen = styling[field];
    if (!isObject(chosen) || chosen.custom !== true || chosen.id !== fontId) continue;
    if (definition) styling[field] = definition;
    else delete styling[field];
    changed = true;
  }
  if (!changed) return null;
  const out: Json = { ...customization, styling };
  if (!Object.keys(styling).length) delete out.styling;
  return out;
}

/**
 * Every site of the organization that chose the custom font `fontId` (as its text, heading or code font, or in a
 * site space's overrides) follows it: its customization keeps the font as it is now (`definition`), or, once the
 * font is deleted (null), drops it and draws the default font. Each site changed is marked so (`site.updated`, and
 * its `updatedAt`, which the published pages' cache keys on).
 */
export async function sitesFollowingFont(
  em: EntityManager,
  props: { organizationId: string; fontId: string; definition: FontDefinition | null; now?: Date },
): Promise<number> {
  const { organizationId, fontId, definition } = props;
  const now = props.now ?? new Date();
  const changed = new Set<string>();
  for (const id of await fontChoiceRepository.sitesMentioning(em, organizationId, fontId)) {
    await siteRepository.lock(em, id);
    const site = await siteRepository.findIn(em, organizationId, id);
    const next = site && followingFont(site.customization, fontId, definition);
    if (!site || !next) continue;
    site.customization = next;
    site.customizationUpdatedAt = now;
    changed.add(site.id);
  }
  for (const row of await fontChoiceRepository.siteSpacesMentioning(em, organizationId, fontId)) {
    const next = followingFont(row.customization, fontId, definition);
    if (!next) continue;
    await fontChoiceRepository.setSiteSpaceCustomization(em, row.id, Object.keys(next).length ? next : null, now);
    changed.add(row.siteId);
  }
  for (const id of changed) {
    const site = await siteRepository.findIn(em, organizationId, id);
    if (site) siteChanged(em, site, ['customization'], now);
  }
  return changed.size;
}

/** Drops the uploads no custom font has named since `before` (their bytes queued for the sweep). */
export async function unusedUploadsDropper(em: EntityManager, { before, now }: { before: Date; now: Date }) {
  return storageFileRepository.dropUnusedBefore(em, before, now);
}

/**
 * Removes the queued bytes `blobKey` from the store when no upload (of any organization) names them, under the
 * bytes' lock (which uploads take too); either way they leave the queue. True when removed.
 */
export async function fontBlobReleaser(
  em: EntityManager,
  { blobs, blobKey }: { blobs: BlobStore; blobKey: string },
): Promise<boolean> {
  await storageFileRepository.lockBlob(em, blobKey);
  const named = await storageFileRepository.blobNamed(em, blobKey);
  if (!named) await blobs.delete(blobKey);
  await storageFileRepository.forgetOrphan(em, blobKey);
  return !named;
}
