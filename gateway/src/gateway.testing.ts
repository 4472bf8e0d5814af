import { testLogger, TEST_SECRET, useResource } from '@quire/kit/testing';
import { buildGateway, type Gateway } from './app.ts';
import { loadGatewayConfig } from './env.ts';

/**
 * Test only: a gateway whose services are all unreachable (a closed port), for what it answers on its own.
 * `env` adds to (or overrides) its configuration, e.g. `QUIRE_PUBLIC_URL`.
 */
export function offlineGateway(env: Record<string, string> = {}): Promise<Gateway> {
  const closed = 'http://127.0.0.1:9';
  const config = loadGatewayConfig({
    QUIRE_INTERNAL_SECRET: TEST_SECRET,
    ORG_ADMIN_URL: closed,
    CONTENT_URL: closed,
    SITES_URL: closed,
    INTEGRATIONS_URL: closed,
    ...env,
  });
  return buildGateway({ config, log: testLogger() });
}

/** Test only: `offlineGateway(env)` for one test file (or `describe` block): built in `beforeAll`, closed in `afterAll`. */
export function useOfflineGateway(env: Record<string, string> = {}): Gateway {
  return useResource(
    () => offlineGateway(env),
    (gw) => gw.close(),
  );
}
