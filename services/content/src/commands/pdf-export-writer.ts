import { newId, type EntityManager } from '@quire/kit';
import type { IPdfExport, PdfExportKey, PdfExportOutcome } from '../modules/pdf/pdf-export.entity.ts';
import { pdfExportRepository } from '../modules/pdf/pdf-export.repository.ts';

/** The export of `key`: found, or added `pending`; a failed one goes back to `pending` for a new try. */
export async function pdfExportRequester(
  em: EntityManager,
  { key, now = new Date() }: { key: PdfExportKey; now?: Date },
): Promise<IPdfExport> {
  const found = await pdfExportRepository.findOrInsert(em, key, newId(), now);
  return found.state === 'failed' ? ((await pdfExportRepository.retry(em, found.id, now)) ?? found) : found;
}

export interface PdfExportClaimerProps {
  /** This export (the request rendering a small content itself), else the one waiting longest (the job). */
  exportId?: string;
  leaseMs: number;
  now?: Date;
}

/** Claims an export to render (`progress`, with a lease), or null when there is none to claim. */
export async function pdfExportClaimer(
  em: EntityManager,
  { exportId, leaseMs, now = new Date() }: PdfExportClaimerProps,
): Promise<IPdfExport | null> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  if (exportId !== undefined) return pdfExportRepository.claim(em, exportId, now, leaseUntil);
  await pdfExportRepository.failAbandoned(em, now);
  return pdfExportRepository.claimNext(em, now, leaseUntil);
}

/** Keeps a running claim alive; false when it was lost. */
export function pdfExportLeaseRenewer(
  em: EntityManager,
  { claim, leaseMs, now = new Date() }: { claim: IPdfExport; leaseMs: number; now?: Date },
): Promise<boolean> {
  return pdfExportRepository.renewLease(em, claim, new Date(now.getTime() + leaseMs));
}

/** Records the end of a claimed render; false when the claim was lost meanwhile (another claimer's result stands). */
export function pdfExportFinisher(
  em: EntityManager,
  { claim, outcome, now = new Date() }: { claim: IPdfExport; outcome: PdfExportOutcome; now?: Date },
): Promise<boolean> {
  return pdfExportRepository.finish(em, claim, outcome, now);
}
