import { contentService, loadContentConfig } from '@quire/content';
import type { EventBus } from '@quire/kit';
import { createTestDatabase, startTestService, type TestDatabase, type TestService } from '@quire/kit/testing';
import { loadSitesConfig } from './env.ts';
import { sitesService } from './service.ts';

/** Test helpers of the sites service (not part of the service). */

export interface SitesPlatform {
  db: TestDatabase;
  sites: TestService;
  /** The content service on the same database: sites fetches spaces from it, it resolves share keys with sites. */
  content: TestService;
  close(): Promise<void>;
}

/** sites and content on one fresh test database, each one's peers pointing at the other (one bus when given). */
export async function startSitesAndContent(
  label: string,
  opts: { bus?: EventBus; sitesEnv?: Record<string, string> } = {},
): Promise<SitesPlatform> {
  const db = await createTestDatabase(label);
  const content = await startTestService(contentService, loadContentConfig, db, opts.bus ? { bus: opts.bus } : {});
  const sites = await startTestService(sitesService, loadSitesConfig, db, {
    ...(opts.bus ? { bus: opts.bus } : {}),
    ...(opts.sitesEnv ? { env: opts.sitesEnv } : {}),
  });
  sites.svc.deps.peers.setEndpoint('content', content.url);
  content.svc.deps.peers.setEndpoint('sites', sites.url);
  return {
    db,
    sites,
    content,
    close: async () => {
      await sites.close();
      await content.close();
      await db.drop();
    },
  };
}
