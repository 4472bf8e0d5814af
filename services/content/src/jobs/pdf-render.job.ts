import { DomainError, publicUrls, runLeasedClaims, type JobDefinition, type ServiceDeps } from '@quire/kit';
import { pdfExportClaimer, pdfExportFinisher } from '../commands/pdf-export-writer.ts';
import type { ContentConfig } from '../env.ts';
import {
  PDF_JOB,
  PDF_LEASE_MS,
  pdfLease,
  renderClaimedExport,
  type PdfExportDeps,
} from '../modules/pdf/pdf-exporter.ts';
import { loadPdfRequestOf } from '../modules/pdf/pdf.loader.ts';

/** Exports rendered by one run at most (the next run goes on). */
const PER_RUN = 10;

/**
 * Renders the PDF exports waiting (`pending`, or `progress` whose lease lapsed because the process working
 * on it stopped; after three such claims an export is `failed`), one claim after another, the longest
 * waiting first. Returns the ids of the exports rendered (or failed).
 */
export async function renderWaitingPdfExports(deps: PdfExportDeps, max = PER_RUN): Promise<string[]> {
  const done = await runLeasedClaims({
    ...pdfLease(deps),
    max,
    claim: () => deps.em.fork().transactional((tx) => pdfExportClaimer(tx, { leaseMs: PDF_LEASE_MS })),
    work: async (claim) => {
      let req;
      try {
        req = await loadPdfRequestOf(deps.em.fork(), claim);
      } catch (err) {
        if (!(err instanceof DomainError && err.reason === 'not_found')) throw err;
        await deps.em
          .fork()
          .transactional((tx) => pdfExportFinisher(tx, { claim, outcome: { state: 'failed', error: err.message } }));
        return;
      }
      await renderClaimedExport(deps, claim, req);
    },
  });
  return done.map((claim) => claim.id);
}

/** Every `QUIRE_PDF_SCAN_EVERY_MS` (and at start): renders the PDF exports too large to be rendered while their request waited. */
export function pdfRenderJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  const urls = publicUrls(deps.config.QUIRE_PUBLIC_URL);
  return {
    name: PDF_JOB,
    everyMs: deps.config.QUIRE_PDF_SCAN_EVERY_MS,
    maxAttempts: 5,
    // One run may render several large books; the runner keeps a running one alive.
    timeoutMs: 60_000,
    run: async () => {
      await renderWaitingPdfExports({
        em: deps.orm.em.fork(),
        blobs: deps.blobs,
        urls,
        config: deps.config,
        log: deps.log,
      });
    },
  };
}
