import { sql, type EntityManager } from '@quire/kit';
import type { SITE_INSIGHTS_ANSWERED_COLUMNS } from '@quire/contracts';

/** A column Quire answers in `aggregateSiteEvents`. */
export type AnsweredColumn = (typeof SITE_INSIGHTS_ANSWERED_COLUMNS)[number];
export type Interval = 'hour' | 'day' | 'week' | 'month';
export interface ColumnRef {
  column: AnsweredColumn;
  /** `datetime` only: the bucket. */
  interval?: Interval | undefined;
}
export type Operator = 'in' | 'notIn' | 'greaterThan' | 'greaterThanOrEqual' | 'lessThan' | 'lessThanOrEqual';
export interface Filter {
  column: ColumnRef;
  operator: Operator;
  /** The values (`in`/`notIn`), or the one value compared with. */
  values: (string | number | boolean | null)[];
}

/** An aggregation of a site's events over `[from, to)`, checked by its loader (columns, operators, values). */
export interface AggregatePlan {
  siteId: string;
  from: Date;
  to: Date;
  /** The columns grouped by (every non-aggregate column of `output`). */
  dimensions: ColumnRef[];
  /** The columns answered, in order. */
  output: ColumnRef[];
  filters: Filter[];
  order: { by: ColumnRef; direction: 'asc' | 'desc' } | null;
  limit: number;
}

/** The aggregate columns (counted over a group); the others are the event's own values. */
export const AGGREGATES: ReadonlySet<AnsweredColumn> = new Set([
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'pageFeedbackRating',
]);

const INTERVALS: Record<Interval, string> = { hour: 'hour', day: 'day', week: 'week', month: 'month' };

/** GitBook's event type of a recorded event. */
const EVENT_TYPE = `case kind when 'page_view' then 'page_view' when 'search' then 'search_type_query'
  else case when comment is null then 'page_post_feedback' else 'page_post_feedback_comment' end end`;

/** The SQL of each column, over the `events` of the statement below (whitelisted: no input reaches the text). */
function expressionOf(c: ColumnRef): string {
  switch (c.column) {
    case 'datetime':
      return `to_char(date_trunc('${INTERVALS[c.interval ?? 'day']}', occurred_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    case 'dayOfWeek':
      return `extract(isodow from occurred_at at time zone 'UTC')::int`;
    case 'hourOfDay':
      return `extract(hour from occurred_at at time zone 'UTC')::int`;
    case 'urlPath':
      return 'url_path';
    case 'eventType':
      return `(${EVENT_TYPE})`;
    case 'siteSpace':
      return 'site_space_id';
    case 'page':
      return 'page_id';
    case 'displayContext':
      return `'site'::text`;
    case 'eventPageNotFoundType':
      return 'null::text';
    case 'eventSearchQuery':
      return 'query';
    case 'eventPageFeedbackRating':
      return 'rating';
    case 'eventPageFeedbackComment':
      return 'comment';
    case 'eventsCount':
      return 'count(*)::int';
    case 'visitorsCount':
      // A visitor's pseudonym changes every day: a visitor counts once a day.
      return 'count(distinct visitor)::int';
    case 'sessionsCount':
      return 'count(distinct session)::int';
    case 'pageFeedbackRating':
      return `json_build_object('ok', count(*) filter (where rating = 'ok'), 'good', count(*) filter (where rating = 'good'),
        'bad', count(*) filter (where rating = 'bad'))`;
  }
}

const COMPARE: Record<Exclude<Operator, 'in' | 'notIn'>, string> = {
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  lessThan: '<',
  lessThanOrEqual: '<=',
};

/** The columns whose values are numbers. */
export const NUMERIC_COLUMNS: ReadonlySet<AnsweredColumn> = new Set([
  'dayOfWeek',
  'hourOfDay',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
]);

/** The condition of a filter, its values pushed to `params` (typed: a number compares as one whatever its form). */
function conditionOf(f: Filter, params: unknown[]): string {
  // A date compares the event's time, not its bucket.
  const expr = f.column.column === 'datetime' ? 'occurred_at' : expressionOf(f.column);
  const cast =
    f.column.column === 'datetime' ? '::timestamptz' : NUMERIC_COLUMNS.has(f.column.column) ? '::numeric' : '::text';
  if (f.operator !== 'in' && f.operator !== 'notIn') {
    params.push(f.values[0]);
    return `coalesce(${expr} ${COMPARE[f.operator]} ?${cast}, false)`;
  }
  const present = f.values.filter((v) => v !== null);
  const parts: string[] = [];
  if (present.length) {
    parts.push(`coalesce(${expr} in (${present.map(() => `?${cast}`).join(', ')}), false)`);
    params.push(...present);
  }
  if (present.length !== f.values.length) parts.push(`${expr} is null`);
  const member = parts.length ? `(${parts.join(' or ')})` : 'false';
  return f.operator === 'in' ? member : `not ${member}`;
}

/** A session: a visitor's events (one day's pseudonym) with at most 30 minutes between two of them. */
const EVENTS = `with ranged as (
  select e.*, lag(occurred_at) over (partition by visitor order by occurred_at, id) as previous_at
    from :schema.site_insight_event e where site_id = ? and occurred_at >= ? and occurred_at < ?
), events as (
  select ranged.*, visitor || '/' || sum(case when previous_at is null or occurred_at - previous_at > interval '30 minutes'
    then 1 else 0 end) over (partition by visitor order by occurred_at, id) as session
    from ranged
)`;

/** The rows of an aggregation: one per group, the output columns as `c0`, `c1`… */
export async function aggregateSiteEvents(em: EntityManager, plan: AggregatePlan): Promise<Record<string, unknown>[]> {
  const params: unknown[] = [plan.siteId, plan.from, plan.to];
  const select = plan.output.map((c, i) => `${expressionOf(c)} as c${i}`).join(', ');
  const where = plan.filters.filter((f) => !AGGREGATES.has(f.column.column)).map((f) => conditionOf(f, params));
  const group = plan.dimensions.map(expressionOf);
  const having = plan.filters.filter((f) => AGGREGATES.has(f.column.column)).map((f) => conditionOf(f, params));
  const order = [
    ...(plan.order ? [`${expressionOf(plan.order.by)} ${plan.order.direction} nulls last`] : []),
    ...group.map((g) => `${g} asc nulls last`),
  ];
  params.push(plan.limit);
  const text = [
    EVENTS,
    `select ${select} from events`,
    where.length ? `where ${where.join(' and ')}` : '',
    group.length ? `group by ${group.join(', ')}` : '',
    having.length ? `having ${having.join(' and ')}` : '',
    order.length ? `order by ${order.join(', ')}` : '',
    'limit ?',
  ]
    .filter(Boolean)
    .join('\n');
  return sql<Record<string, unknown>>(em, text, params);
}

/** Events, visitors (a visitor once a day) and sessions of a site in `[from, to)`. */
export async function siteEventTotals(
  em: EntityManager,
  siteId: string,
  from: Date,
  to: Date,
): Promise<{ events: number; visitors: number; sessions: number }> {
  const [row] = await sql<{ events: number; visitors: number; sessions: number }>(
    em,
    `${EVENTS}
    select count(*)::int as events, count(distinct visitor)::int as visitors, count(distinct session)::int as sessions
      from events`,
    [siteId, from, to],
  );
  return row!;
}
