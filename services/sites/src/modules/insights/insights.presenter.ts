import type {
  List,
  SiteInsightsQueryEventsAggregationResult,
  SiteInsightsSummarySchema,
  SiteInsightsVisitorSegmentSchema,
} from '@quire/contracts';
import type { z } from 'zod';
import type { AggregatePlan } from './insights-aggregate.repository.ts';

type Summary = z.infer<typeof SiteInsightsSummarySchema>;
type Segment = z.infer<typeof SiteInsightsVisitorSegmentSchema>;

/** The summary of a site's events, as `getSiteInsightsSummary` answers it. */
export const presentInsightsSummary = (summary: Summary): Summary => summary;

type Value = SiteInsightsQueryEventsAggregationResult['columns'][number]['values'][number];

/** An aggregation's rows as GitBook answers them: column by column, each with its values in the rows' order. */
export function presentSiteEventsAggregate(plan: AggregatePlan, rows: Record<string, unknown>[]) {
  return {
    columns: plan.output.map((c, i) => ({ column: c.column, values: rows.map((r) => (r[`c${i}`] ?? null) as Value) })),
  } satisfies SiteInsightsQueryEventsAggregationResult;
}

/**
 * A site's visitor segments: Quire keeps no visitor claims, so its visitors make one segment (none while the site
 * has no events).
 */
export function presentVisitorSegments(totals: { events: number; visitors: number; sessions: number }): List<Segment> {
  const items = totals.events > 0 ? [{ title: 'All visitors', claims: {}, ...totals }] : [];
  return { count: items.length, items };
}
