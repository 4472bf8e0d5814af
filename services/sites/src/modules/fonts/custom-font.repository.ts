import { sql, sqlRun, type EntityManager } from '@quire/kit';

/** The formats a font file may have, told by its first bytes (`font-file.ts`). */
export type FontFormat = 'woff2' | 'woff' | 'ttf' | 'otf';

/** An uploaded file (`storage_file`): its bytes are the blob `blobKey` of the sites service's store. */
export interface StorageFile {
  key: string;
  organizationId: string;
  kind: string;
  name: string;
  blobKey: string;
  format: FontFormat;
  size: number;
  createdBy: string | null;
  createdAt: Date;
}

/** A face of a custom font: a weight and the storage key of its file. */
export interface CustomFontFace {
  weight: number;
  storageKey: string;
}

/** A custom font of an organization (`custom_font`). */
export interface CustomFontRow {
  id: string;
  organizationId: string;
  fontFamily: string;
  faces: CustomFontFace[];
  createdAt: Date;
  updatedAt: Date;
}

interface FileRecord {
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  blob_key: string;
  format: FontFormat;
  size: number;
  created_by: string | null;
  created_at: Date;
}
interface FontRecord {
  id: string;
  organization_id: string;
  font_family: string;
  faces: CustomFontFace[] | string;
  created_at: Date;
  updated_at: Date;
}

const fileOf = (r: FileRecord): StorageFile => ({
  key: r.key,
  organizationId: r.organization_id,
  kind: r.kind,
  name: r.name,
  blobKey: r.blob_key,
  format: r.format,
  size: Number(r.size),
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
});
const fontOf = (r: FontRecord): CustomFontRow => ({
  id: r.id,
  organizationId: r.organization_id,
  fontFamily: r.font_family,
  faces: typeof r.faces === 'string' ? (JSON.parse(r.faces) as CustomFontFace[]) : r.faces,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The uploaded files (`storage_file`). */
export const storageFileRepository = {
  /** Records an uploaded file; false when its key was already taken (an upload URL used twice). */
  async insert(em: EntityManager, f: StorageFile): Promise<boolean> {
    const n = await sqlRun(
      em,
      `insert into :schema.storage_file (key, organization_id, kind, name, blob_key, format, size, created_by, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (key) do nothing`,
      [f.key, f.organizationId, f.kind, f.name, f.blobKey, f.format, f.size, f.createdBy, f.createdAt],
    );
    return n > 0;
  },

  /** The files of the organization under these keys (the others are missing from the answer). */
  async findIn(em: EntityManager, organizationId: string, keys: readonly string[]): Promise<Map<string, StorageFile>> {
    if (!keys.length) return new Map();
    const rows = await sql<FileRecord>(
      em,
      `select * from :schema.storage_file where organization_id = ?
       and key in (select jsonb_array_elements_text(?::jsonb))`,
      [organizationId, JSON.stringify([...new Set(keys)])],
    );
    return new Map(rows.map((r) => [r.key, fileOf(r)]));
  },

  /** A file whose bytes are the blob `blobKey` and that a custom font names (what the pages may load). */
  async findServed(em: EntityManager, blobKey: string): Promise<StorageFile | null> {
    const [row] = await sql<FileRecord>(
      em,
      `select f.* from :schema.storage_file f where f.blob_key = ? and exists (
         select 1 from :schema.custom_font c, jsonb_array_elements(c.faces) face
         where c.organization_id = f.organization_id and face->>'storageKey' = f.key)
       limit 1`,
      [blobKey],
    );
    return row ? fileOf(row) : null;
  },

  /**
   * Drops the files of the organization under these keys that no custom font names any more, and queues their
   * bytes for the font blob sweep (`storage_blob_orphan`); another row may still name the same bytes, which the sweep
   * checks. Answers how many files went.
   */
  async dropUnnamed(em: EntityManager, organizationId: string, keys: readonly string[], now: Date): Promise<number> {
    if (!keys.length) return 0;
    return dropFiles(
      em,
      `f.organization_id = ? and f.key in (select jsonb_array_elements_text(?::jsonb)) and ${UNNAMED}`,
      [organizationId, JSON.stringify([...new Set(keys)])],
      now,
    );
  },

  /** Drops every file of a deleted organization, its bytes queued for the sweep. */
  async dropOrganization(em: EntityManager, organizationId: string, now: Date): Promise<number> {
    return dropFiles(em, 'f.organization_id = ?', [organizationId], now);
  },

  /** Drops the uploads no custom font names that were made before `before` (left unused), bytes queued. */
  async dropUnusedBefore(em: EntityManager, before: Date, now: Date): Promise<number> {
    return dropFiles(em, `f.created_at < ? and ${UNNAMED}`, [before], now);
  },

  /** Some blob keys queued for the sweep, the oldest first. */
  async orphans(em: EntityManager, limit: number): Promise<string[]> {
    const rows = await sql<{ blob_key: string }>(
      em,
      'select blob_key from :schema.storage_blob_orphan order by since, blob_key limit ?',
      [limit],
    );
    return rows.map((r) => r.blob_key);
  },

  async forgetOrphan(em: EntityManager, blobKey: string): Promise<void> {
    await sqlRun(em, 'delete from :schema.storage_blob_orphan where blob_key = ?', [blobKey]);
  },

  /**
   * Takes the lock of the bytes `blobKey` for the rest of the transaction: an upload of these bytes (which stores them,
   * then records its file) and the sweep (which checks that no file names them, then removes them) never interleave.
   */
  async lockBlob(em: EntityManager, blobKey: string): Promise<void> {
    await sql(em, `select pg_advisory_xact_lock(hashtext('font-blob:' || ?))`, [blobKey]);
  },

  /** Whether a file (of any organization) names the bytes `blobKey`. */
  async blobNamed(em: EntityManager, blobKey: string): Promise<boolean> {
    const rows = await sql(em, 'select 1 from :schema.storage_file where blob_key = ? limit 1', [blobKey]);
    return rows.length > 0;
  },
};

/** No custom font of the file's organization names it (`f`, a `storage_file` row). */
const UNNAMED = `not exists (
  select 1 from :schema.custom_font c, jsonb_array_elements(c.faces) face
  where c.organization_id = f.organization_id and face->>'storageKey' = f.key)`;

/** Deletes the files `where` picks (`f`) and queues their blob keys for the sweep, in one statement. */
async function dropFiles(em: EntityManager, where: string, params: unknown[], now: Date): Promise<number> {
  const [row] = await sql<{ n: string }>(
    em,
    `with gone as (delete from :schema.storage_file f where ${where} returning f.blob_key),
     queued as (insert into :schema.storage_blob_orphan (blob_key, since)
       select distinct blob_key, ?::timestamptz from gone on conflict (blob_key) do nothing)
     select count(*) as n from gone`,
    [...params, now],
  );
  return Number(row?.n ?? 0);
}

/** The organizations' custom fonts (`custom_font`). */
export const customFontRepository = {
  /** The organization's fonts by family, then id. */
  async listIn(em: EntityManager, organizationId: string): Promise<CustomFontRow[]> {
    const rows = await sql<FontRecord>(
      em,
      'select * from :schema.custom_font where organization_id = ? order by font_family, id',
      [organizationId],
    );
    return rows.map(fontOf);
  },

  async findIn(em: EntityManager, organizationId: string, id: string): Promise<CustomFontRow | null> {
    const [row] = await sql<FontRecord>(em, 'select * from :schema.custom_font where organization_id = ? and id = ?', [
      organizationId,
      id,
    ]);
    return row ? fontOf(row) : null;
  },

  async count(em: EntityManager, organizationId: string): Promise<number> {
    const [row] = await sql<{ n: string }>(
      em,
      'select count(*) as n from :schema.custom_font where organization_id = ?',
      [organizationId],
    );
    return Number(row?.n ?? 0);
  },

  async insert(em: EntityManager, f: CustomFontRow): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.custom_font (id, organization_id, font_family, faces, created_at, updated_at)
       values (?, ?, ?, ?::jsonb, ?, ?)`,
      [f.id, f.organizationId, f.fontFamily, JSON.stringify(f.faces), f.createdAt, f.updatedAt],
    );
  },

  async update(em: EntityManager, f: CustomFontRow): Promise<void> {
    await sqlRun(
      em,
      'update :schema.custom_font set font_family = ?, faces = ?::jsonb, updated_at = ? where id = ? and organization_id = ?',
      [f.fontFamily, JSON.stringify(f.faces), f.updatedAt, f.id, f.organizationId],
    );
  },

  async delete(em: EntityManager, organizationId: string, id: string): Promise<void> {
    await sqlRun(em, 'delete from :schema.custom_font where organization_id = ? and id = ?', [organizationId, id]);
  },

  async deleteOrganization(em: EntityManager, organizationId: string): Promise<void> {
    await sqlRun(em, 'delete from :schema.custom_font where organization_id = ?', [organizationId]);
  },
};

/** The customizations that may have chosen a custom font (`site.customization`, `site_space.customization`). */
export const fontChoiceRepository = {
  /** The ids of the organization's sites whose customization mentions `fontId` (to be checked by the caller). */
  async sitesMentioning(em: EntityManager, organizationId: string, fontId: string): Promise<string[]> {
    const rows = await sql<{ id: string }>(
      em,
      'select id from :schema.site where organization_id = ? and strpos(customization::text, ?) > 0 order by id',
      [organizationId, fontId],
    );
    return rows.map((r) => r.id);
  },

  /** The organization's site spaces whose overrides mention `fontId`, with their overrides. */
  async siteSpacesMentioning(
    em: EntityManager,
    organizationId: string,
    fontId: string,
  ): Promise<{ id: string; siteId: string; customization: Record<string, unknown> }[]> {
    const rows = await sql<{ id: string; site_id: string; customization: Record<string, unknown> | string }>(
      em,
      `select ss.id, ss.site_id, ss.customization from :schema.site_space ss join :schema.site s on s.id = ss.site_id
       where s.organization_id = ? and strpos(ss.customization::text, ?) > 0 order by ss.id`,
      [organizationId, fontId],
    );
    return rows.map((r) => ({
      id: r.id,
      siteId: r.site_id,
      customization: typeof r.customization === 'string' ? JSON.parse(r.customization) : r.customization,
    }));
  },

  async setSiteSpaceCustomization(
    em: EntityManager,
    id: string,
    customization: Record<string, unknown> | null,
    now: Date,
  ): Promise<void> {
    await sqlRun(
      em,
      'update :schema.site_space set customization = ?::jsonb, customization_updated_at = ? where id = ?',
      [customization ? JSON.stringify(customization) : null, now, id],
    );
  },
};
