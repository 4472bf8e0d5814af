import type { SiteInsightsSummarySchema } from '@quire/contracts';
import type { z } from 'zod';

type Summary = z.infer<typeof SiteInsightsSummarySchema>;

/** The summary of a site's events, as `getSiteInsightsSummary` answers it. */
export const presentInsightsSummary = (summary: Summary): Summary => summary;
