import type { BlobStore, EntityManager, JobDefinition, ServiceDeps } from '@quire/kit';
import type { SitesConfig } from '../../env.ts';
import { fontBlobReleaser, unusedUploadsDropper } from '../../commands/custom-font-commands.ts';
import { storageFileRepository } from './custom-font.repository.ts';

export const FONT_BLOB_SWEEP_JOB = 'sites-sweep-font-blobs';
/** How often the sweep runs (and once at start). */
export const FONT_BLOB_SWEEP_EVERY_MS = 60 * 60_000;
/** An upload no font names is dropped after a day (its URL works for 15 minutes; the app names it at once). */
export const UNUSED_UPLOAD_MS = 24 * 60 * 60_000;
const PAGE = 100;

export interface SweepCounts {
  /** Uploads dropped because no font named them for a day. */
  unusedUploads: number;
  /** Blobs removed from the store: no file of any organization named their bytes any more. */
  removed: number;
  /** Queued blobs kept: a file still names their bytes (another font's, or an upload of the same bytes). */
  kept: number;
}

/**
 * The bytes no custom font uses any more leave the blob store: the uploads unused for a day are dropped, then each
 * queued blob key (`storage_blob_orphan`, filled in the transactions that dropped files) is checked under the
 * bytes' lock, which uploads take too, and the blob removed when no `storage_file` row names it. The bytes are
 * content-addressed: a file of another font (or organization) with the same bytes keeps them.
 */
export async function sweepFontBlobs(em: EntityManager, blobs: BlobStore, now = new Date()): Promise<SweepCounts> {
  const before = new Date(now.getTime() - UNUSED_UPLOAD_MS);
  const unusedUploads = await em.fork().transactional((tx) => unusedUploadsDropper(tx, { before, now }));
  const counts: SweepCounts = { unusedUploads, removed: 0, kept: 0 };
  for (;;) {
    const keys = await storageFileRepository.orphans(em.fork(), PAGE);
    for (const key of keys) {
      const removed = await em.fork().transactional((tx) => fontBlobReleaser(tx, { blobs, blobKey: key }));
      if (removed) counts.removed++;
      else counts.kept++;
    }
    if (keys.length < PAGE) return counts;
  }
}

/** At start and every hour: the font files' bytes nothing uses any more removed (`sweepFontBlobs`). */
export function fontBlobSweepJob(deps: ServiceDeps<SitesConfig>): JobDefinition {
  return {
    name: FONT_BLOB_SWEEP_JOB,
    everyMs: FONT_BLOB_SWEEP_EVERY_MS,
    maxAttempts: 3,
    timeoutMs: 10 * 60_000,
    run: async () => {
      const counts = await sweepFontBlobs(deps.orm.em.fork(), deps.blobs);
      if (counts.unusedUploads || counts.removed) deps.log.info(counts, 'font files swept');
    },
  };
}
