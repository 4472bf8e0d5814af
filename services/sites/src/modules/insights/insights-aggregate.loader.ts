import {
  SITE_INSIGHTS_AGGREGATE_LIMIT,
  SITE_INSIGHTS_ANSWERED_COLUMNS,
  type OperationInput,
  type ops,
  type SiteInsightsColumnName,
  type SiteInsightsQueryEventsFilter,
  type SiteInsightsQueryRange,
} from '@quire/contracts';
import { invalid } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import {
  AGGREGATES,
  aggregateSiteEvents,
  NUMERIC_COLUMNS,
  siteEventTotals,
  type AggregatePlan,
  type AnsweredColumn,
  type ColumnRef,
  type Filter,
  type Interval,
} from './insights-aggregate.repository.ts';

type Ctx = Pick<SitesContext, 'em'>;
type Input = OperationInput<typeof ops.aggregateSiteEvents>;

const DAY_MS = 24 * 60 * 60 * 1000;
const PRESETS: Record<Extract<SiteInsightsQueryRange, string>, number> = {
  lastYear: 365 * DAY_MS,
  last3Months: 90 * DAY_MS,
  last30Days: 30 * DAY_MS,
  last7Days: 7 * DAY_MS,
  last24Hours: DAY_MS,
};

/** `[from, to)` of a range: a preset up to now, or two dates (400 when `to` is before `from`). */
export function rangeOf(range: SiteInsightsQueryRange, now: Date): { from: Date; to: Date } {
  if (typeof range === 'string')
    return { from: new Date(now.getTime() - PRESETS[range]), to: new Date(now.getTime() + 1) };
  const from = new Date(range.from);
  const to = new Date(range.to);
  if (to.getTime() < from.getTime()) throw invalid('Invalid request: range.to: must not be before range.from');
  return { from, to };
}

const ANSWERED: ReadonlySet<string> = new Set(SITE_INSIGHTS_ANSWERED_COLUMNS);

/** A column of the query as Quire answers it (400 naming the field for a column Quire does not record). */
function columnOf(c: { column: SiteInsightsColumnName; interval?: Interval | undefined }, field: string): ColumnRef {
  if (!ANSWERED.has(c.column))
    throw invalid(
      `Invalid request: ${field}.column: Quire does not record \`${c.column}\` (see docs/published-content-api.md)`,
    );
  return c.column === 'datetime'
    ? { column: 'datetime', interval: c.interval ?? 'day' }
    : { column: c.column as AnsweredColumn };
}

const same = (a: ColumnRef, b: ColumnRef) => a.column === b.column && a.interval === b.interval;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Whether a filter's value fits its column: a number, a date (ISO 8601), a text (or null where it may be null). */
function fits(column: AnsweredColumn, v: unknown): boolean {
  if (column === 'datetime') return typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v));
  if (NUMERIC_COLUMNS.has(column)) return typeof v === 'number' && Number.isFinite(v);
  return v === null || typeof v === 'string';
}

function filterOf(f: SiteInsightsQueryEventsFilter, i: number): Filter {
  const field = `where.${i}`;
  const column = columnOf(f, field);
  if (column.column === 'pageFeedbackRating')
    throw invalid(`Invalid request: ${field}.column: \`pageFeedbackRating\` cannot be filtered`);
  const operator = f.operator ?? 'in';
  const bad = f.values.findIndex((v) => !fits(column.column, v));
  if (bad >= 0) throw invalid(`Invalid request: ${field}.values.${bad}: not a value of \`${column.column}\``);
  const comparing = operator !== 'in' && operator !== 'notIn';
  if (comparing && (f.values.length !== 1 || f.values[0] === null))
    throw invalid(`Invalid request: ${field}.values: \`${operator}\` compares with exactly one value`);
  const values = f.values as Filter['values'];
  // A date as PostgreSQL reads it whatever its form.
  return {
    column,
    operator,
    values: column.column === 'datetime' ? values.map((v) => new Date(v as string).toISOString()) : values,
  };
}

/**
 * The plan of an aggregation (GitBook's semantics as Quire answers them): the `groupBy` columns then the `select`
 * ones are answered (`eventsCount` when nothing is selected); every non-aggregate answered column is grouped by; the
 * rows are ordered by `order` (a column answered or counted), then by the grouped columns.
 */
export function aggregatePlanOf(siteId: string, input: Input, now = new Date()): AggregatePlan {
  const grouped = (input.groupBy ?? []).map((c, i) => columnOf(c, `groupBy.${i}`));
  const selected = input.select?.length
    ? input.select.map((c, i) => columnOf(c, `select.${i}`))
    : [{ column: 'eventsCount' } as const];
  const output: ColumnRef[] = [];
  for (const c of [...grouped, ...selected]) if (!output.some((o) => same(o, c))) output.push(c);
  const dimensions = output.filter((c) => !AGGREGATES.has(c.column));
  const order = input.order ? { by: columnOf(input.order.by, 'order.by'), direction: input.order.direction } : null;
  if (order && !AGGREGATES.has(order.by.column) && !dimensions.some((d) => same(d, order.by)))
    throw invalid('Invalid request: order.by: order by a column of `groupBy` or `select`, or a count');
  if (order?.by.column === 'pageFeedbackRating')
    throw invalid('Invalid request: order.by: `pageFeedbackRating` has no order');
  return {
    siteId,
    ...rangeOf(input.range, now),
    dimensions,
    output,
    filters: (input.where ?? []).map(filterOf),
    order: order ?? defaultOrder(dimensions, output),
    limit: input.limit ?? SITE_INSIGHTS_AGGREGATE_LIMIT,
  };
}

/** Unless said: a trend in time order, else the largest count first. */
function defaultOrder(dimensions: ColumnRef[], output: ColumnRef[]): AggregatePlan['order'] {
  const datetime = dimensions.find((d) => d.column === 'datetime');
  if (datetime) return { by: datetime, direction: 'asc' };
  const count = output.find((c) => AGGREGATES.has(c.column) && c.column !== 'pageFeedbackRating');
  return count ? { by: count, direction: 'desc' } : null;
}

/** The rows of a site's events aggregated as the input asks (400 naming the field for what Quire cannot answer). */
export async function loadSiteEventsAggregate(
  ctx: Ctx,
  site: ISite,
  input: Input,
  now = new Date(),
): Promise<{ plan: AggregatePlan; rows: Record<string, unknown>[] }> {
  const plan = aggregatePlanOf(site.id, input, now);
  return { plan, rows: await aggregateSiteEvents(ctx.em, plan) };
}

/** How long the visitor segments look back. */
export const SEGMENTS_DAYS = 30;

/** The events, visitors and sessions of a site over the last 30 days (its one visitor segment). */
export function loadVisitorTotals(ctx: Ctx, site: ISite, now = new Date()) {
  return siteEventTotals(
    ctx.em,
    site.id,
    new Date(now.getTime() - SEGMENTS_DAYS * DAY_MS),
    new Date(now.getTime() + 1),
  );
}
