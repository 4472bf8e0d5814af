import type { Finding, FuzzReport } from './fuzz.ts';

/** `npm run fuzz` arguments that send the same requests again. */
export const replayCommand = (r: FuzzReport) =>
  `npm run fuzz -- --budget ${r.budget} --seed ${r.seed}${(r.concurrency ?? 1) > 1 ? ` --concurrency ${r.concurrency}` : ''}`;

/** Requests and statuses per operation, then the totals. */
export function formatSummary(r: FuzzReport): string {
  const seconds = r.elapsedMs / 1000;
  const lines = [
    `contract fuzz: seed ${r.seed}, ${r.sent} requests in ${seconds.toFixed(1)} s (${Math.round(r.sent / seconds)} req/s)`,
    '',
    'requests per operation (status × count):',
  ];
  const totals = new Map<string, number>();
  const width = Math.max(...[...r.statuses.keys()].map((k) => k.length));
  for (const [op, statuses] of r.statuses) {
    const count = [...statuses.values()].reduce((a, b) => a + b, 0);
    lines.push(`  ${op.padEnd(width)} ${String(count).padStart(5)}  ${tally(statuses)}`);
    for (const [s, n] of statuses) totals.set(s, (totals.get(s) ?? 0) + n);
  }
  lines.push('', `statuses: ${tally(totals)}`);
  return lines.join('\n');
}

const tally = (m: Map<string, number>) =>
  [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');

/** Simplest first: fewest hostile parts, then shortest path. */
const simplest = (a: Finding, b: Finding) =>
  a.request.tags.length - b.request.tags.length || a.request.path.length - b.request.path.length || a.index - b.index;

/** Findings grouped by class (rule and signature), each class with up to `examples` requests (the simplest) shown in full. */
export function formatFindings(r: FuzzReport, examples = Infinity): string {
  if (!r.findings.length) return 'no violations';
  const classes = new Map<string, Finding[]>();
  for (const f of r.findings) {
    const key = `${f.violation.rule}: ${f.violation.signature}`;
    classes.set(key, [...(classes.get(key) ?? []), f]);
  }
  const requests = new Set(r.findings.map((f) => f.index)).size;
  const lines = [
    `${r.findings.length} violations (${requests} requests) in ${classes.size} classes; seed ${r.seed}, replay: ${replayCommand(r)}`,
  ];
  for (const [key, found] of classes) {
    const ops = new Set(found.map((f) => f.request.operation));
    lines.push('', `[${key}] ${found.length}× on ${ops.size} operation(s)`);
    for (const f of [...found].sort(simplest).slice(0, examples)) lines.push(formatFinding(f));
    if (found.length > examples) lines.push(`  … and ${found.length - examples} more`);
  }
  return lines.join('\n');
}

export function formatFinding({ index, request: q, outcome, violation }: Finding): string {
  const headers = Object.entries(q.headers)
    .map(([k, v]) => `${k}: ${k === 'authorization' ? `<${q.auth} token>` : show(v, 80)}`)
    .join('; ');
  const answer =
    'response' in outcome
      ? `${outcome.response.status} ${outcome.response.contentType ?? '(no content type)'} ${show(outcome.response.text, 400)}`
      : `no answer: ${outcome.failure.code} ${outcome.failure.message}`;
  return [
    `  #${index} ${q.method} ${show(q.path, 400)}`,
    `      operation: ${q.operation}; auth: ${q.auth}; hostile: ${q.tags.join(', ') || 'none'}`,
    `      headers: ${headers || 'none'}`,
    ...(q.body !== undefined ? [`      body: ${show(q.body, 400)}`] : []),
    `      → ${answer}`,
    `      ${violation.rule}: ${violation.message}`,
  ].join('\n');
}

/** Control, bidi and lone-surrogate characters, escaped when shown. */
const UNPRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text with unprintable characters escaped (`\u0000`), cut at `max` characters. */
function show(text: string, max: number): string {
  const escaped = text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > max ? `${escaped.slice(0, max)}…(${escaped.length} chars)` : escaped;
}
