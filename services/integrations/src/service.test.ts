import { describe, expect, it } from 'vitest';
import { type TestService, useTestService } from '@quire/kit/testing';
import { loadIntegrationsConfig } from './env.ts';
import { integrationsService } from './service.ts';

const t = useTestService(integrationsService, loadIntegrationsConfig, { label: 'integrations' });

describe('integrations service', () => {
  it('migrates its own schema and reports ready', async () => {
    const tables = await t.svc.deps.orm.em
      .getConnection()
      .execute<{ table_name: string }[]>(
        `select table_name from information_schema.tables where table_schema = 'integrations' order by 1`,
      );
    expect(tables.map((r: { table_name: string }) => r.table_name)).toEqual([
      'blob',
      'integration',
      'integration_content_installation',
      'integration_installation',
      'integration_version',
      'mikro_orm_migrations',
      'outbox',
      'processed_event',
    ]);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${t.url}/healthz`)).json()).toEqual({ status: 'ok' });
  });

  it('serves its own /metrics (distributed mode), outbox and pool series included', async () => {
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^quire_outbox_backlog\{service="integrations"\} 0$/m);
    expect(text).toMatch(/^quire_outbox_relay_lag_seconds\{service="integrations"\} 0$/m);
    expect(text).toMatch(/^quire_db_pool_connections\{service="integrations",state="idle"\} \d+$/m);
  });

  it('answers an unknown procedure with the tRPC error envelope', async () => {
    const res = await fetch(`${t.url}/trpc/integrations.nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { data: { httpStatus: number } } }).error.data.httpStatus).toBe(404);
  });

  it('rejects bad configuration at start with every problem named', () => {
    expect(() => loadIntegrationsConfig({ DATABASE_URL: 'nope', QUIRE_INTERNAL_SECRET: 'short' })).toThrow(
      /DATABASE_URL[\s\S]*QUIRE_INTERNAL_SECRET/,
    );
  });
});
