import type { EntityManager } from '@quire/kit';
import { insightsRepository, type SiteEventRow } from '../modules/insights/insights.repository.ts';

export interface SiteEventsRecorderProps {
  /** The rows to record, made by `loadEventsToRecord` (what is kept of each event). */
  rows: readonly SiteEventRow[];
}

/** Records a batch of a site's events (page views, searches, ratings). */
export async function siteEventsRecorder(em: EntityManager, { rows }: SiteEventsRecorderProps): Promise<void> {
  await insightsRepository.insert(em, rows);
}
