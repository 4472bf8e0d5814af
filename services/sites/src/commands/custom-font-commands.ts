import { blobKeyOf, DomainError, sql, sqlRun, type BlobStore, type EntityManager } from '@quire/kit';
import {
  customFontRepository,
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
  const sites = await sql<{ id: string }>(
    em,
    'select id from :schema.site where organization_id = ? and strpos(customization::text, ?) > 0 order by id',
    [organizationId, fontId],
  );
  for (const { id } of sites) {
    await siteRepository.lock(em, id);
    const site = await siteRepository.findIn(em, organizationId, id);
    const next = site && followingFont(site.customization, fontId, definition);
    if (!site || !next) continue;
    site.customization = next;
    site.customizationUpdatedAt = now;
    changed.add(site.id);
  }
  const spaces = await sql<{ id: string; site_id: string; customization: Json | string }>(
    em,
    `select ss.id, ss.site_id, ss.customization from :schema.site_space ss join :schema.site s on s.id = ss.site_id
     where s.organization_id = ? and strpos(ss.customization::text, ?) > 0 order by ss.id`,
    [organizationId, fontId],
  );
  for (const row of spaces) {
    const stored = typeof row.customization === 'string' ? JSON.parse(row.customization) : row.customization;
    const next = followingFont(stored, fontId, definition);
    if (!next) continue;
    await sqlRun(
      em,
      'update :schema.site_space set customization = ?::jsonb, customization_updated_at = ? where id = ?',
      [Object.keys(next).length ? JSON.stringify(next) : null, now, row.id],
    );
    changed.add(row.site_id);
  }
  for (const id of changed) {
    const site = await siteRepository.findIn(em, organizationId, id);
    if (site) siteChanged(em, site, ['customization'], now);
  }
  return changed.size;
}
