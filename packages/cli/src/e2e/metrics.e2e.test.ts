import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { useBootstrap, usePlatform } from './harness.ts';

const p = usePlatform();
const boot = useBootstrap(p, 'Metrics Co', 'mo@metrics.io');

type Scrape = Map<string, MetricFamily> & { text: string };

async function scrape(): Promise<Scrape> {
  const res = await fetch(`${p.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  return Object.assign(new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])), { text });
}

/** A histogram's sample count for one label set (the parser folds labelled histograms, so read the `_count` line). */
function histogramCount(s: Scrape, family: string, labels: string): number {
  const line = s.text.split('\n').find((l) => l.startsWith(`${family}_count{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** The value (or histogram count) of the sample of `family` whose labels include `labels`. */
function sample(families: Map<string, MetricFamily>, family: string, labels: Record<string, string> = {}): number {
  const f = families.get(family);
  const m = f?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return Number(m?.value ?? m?.count ?? Number.NaN);
}

describe('GET /metrics (standalone: one scrape for the whole process)', () => {
  it('exposes the operator series, without a token', async () => {
    const families = await scrape();
    for (const name of [
      'quire_http_requests_total',
      'quire_http_request_duration_seconds',
      'quire_http_requests_in_flight',
      'quire_rpc_calls_total',
      'quire_rpc_duration_seconds',
      'quire_outbox_backlog',
      'quire_outbox_relay_lag_seconds',
      'quire_outbox_published_total',
      'quire_consumer_lag',
      'quire_consumer_redeliveries_total',
      'quire_job_queue_depth',
      'quire_job_dead_letters_total',
      'quire_db_pool_connections',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    for (const service of ['org-admin', 'content', 'sites', 'integrations'])
      expect(sample(families, 'quire_outbox_backlog', { service }), service).toBeGreaterThanOrEqual(0);
    expect(sample(families, 'quire_consumer_lag', { consumer: 'sites-space-events' })).toBeGreaterThanOrEqual(0);
    expect(sample(families, 'quire_job_queue_depth', { job: 'content-purge-spaces' })).toBeGreaterThanOrEqual(0);
    expect(sample(families, 'quire_db_pool_connections', { service: 'content', state: 'idle' })).toBeGreaterThanOrEqual(
      0,
    );
  });

  it('moves under load', async () => {
    const auth = { authorization: `Bearer ${boot.token}`, 'content-type': 'application/json' };
    const space = (await (
      await fetch(`${p.url}/v1/orgs/${boot.organization.id}/spaces`, {
        method: 'POST',
        headers: auth,
        body: '{"title":"Measured"}',
      })
    ).json()) as { id: string };
    const before = await scrape();
    const n = 40;
    await Promise.all(
      Array.from({ length: n }, () =>
        fetch(`${p.url}/v1/spaces/${space.id}`, { headers: auth }).then((r) => r.arrayBuffer()),
      ),
    );
    await fetch(`${p.url}/v1/spaces/nope`, { headers: auth });
    await fetch(`${p.url}/v1/orgs/${boot.organization.id}/spaces`, {
      method: 'POST',
      headers: auth,
      body: '{"title":"One more"}',
    });
    const after = await scrape();
    const ok = { operation: 'getSpaceById', status: '200' };
    expect(
      sample(after, 'quire_http_requests_total', ok) - (sample(before, 'quire_http_requests_total', ok) || 0),
    ).toBe(n);
    const okLabels = 'operation="getSpaceById",status="200"';
    expect(
      histogramCount(after, 'quire_http_request_duration_seconds', okLabels) -
        histogramCount(before, 'quire_http_request_duration_seconds', okLabels),
    ).toBe(n);
    expect(
      sample(after, 'quire_http_requests_total', { operation: 'getSpaceById', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    const rpc = { service: 'content', procedure: 'spaces.get', status: '200' };
    expect(sample(after, 'quire_rpc_calls_total', rpc) - (sample(before, 'quire_rpc_calls_total', rpc) || 0)).toBe(n);
    // The created space's event went through the outbox and the relay.
    await expect
      .poll(async () => sample(await scrape(), 'quire_outbox_published_total', { service: 'content' }), {
        timeout: 5_000,
      })
      .toBeGreaterThan(sample(before, 'quire_outbox_published_total', { service: 'content' }) || 0);
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('QUIRE_METRICS=0', () => {
  const off = usePlatform({ env: { QUIRE_METRICS: '0' } });

  it('serves no /metrics', async () => {
    const res = await fetch(`${off.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 404, message: 'No route GET /metrics' } });
  });
});
