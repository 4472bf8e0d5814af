import { afterAll, beforeAll } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { contentService, loadContentConfig } from '@quire/content';
import { InProcessBus, type EntityManager, type EventBus } from '@quire/kit';
import {
  buildSpace,
  createTestDatabase,
  createTestNatsBus,
  failureOf,
  startTestService,
  TEST_NATS_URL,
  testLogger,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadOrgAdminConfig, orgAdminService } from '@quire/org-admin';
import { loadSitesConfig } from './env.ts';
import { Site, type ISite } from './modules/sites/site.entity.ts';
import { SiteTree } from './modules/structure/site-tree.ts';
import { sitesService } from './service.ts';

/** Test helpers of the sites service (not part of the service). */

export interface SitesPlatform {
  db: TestDatabase;
  sites: TestService;
  /** The content service on the same database: sites fetches spaces from it, it resolves share keys with sites. */
  content: TestService;
  close(): Promise<void>;
}

export interface PlatformOptions {
  bus?: EventBus;
  /** content's bus alone, when sites reads another way (its `NATS_*` variables in `sitesEnv`). */
  contentBus?: EventBus;
  sitesEnv?: Record<string, string>;
  /** content's own settings (`QUIRE_ALLOW_PRIVATE_FETCH` for a Git server on loopback). */
  contentEnv?: Record<string, string>;
  /**
   * Start org-admin too, as content's peer (on `bus` when given): it presents the authors of change requests (the
   * tests' pages).
   */
  orgAdmin?: boolean;
}

/**
 * sites and content on one fresh test database, each one's peers pointing at the other (one bus when given), and
 * org-admin beside them when asked.
 */
export async function startSitesAndContent(label: string, opts: PlatformOptions = {}): Promise<SitesPlatform> {
  const db = await createTestDatabase(label);
  const contentBus = opts.contentBus ?? opts.bus;
  const content = await startTestService(contentService, loadContentConfig, db, {
    ...(contentBus ? { bus: contentBus } : {}),
    ...(opts.contentEnv ? { env: opts.contentEnv } : {}),
  });
  const sites = await startTestService(sitesService, loadSitesConfig, db, {
    ...(opts.bus ? { bus: opts.bus } : {}),
    ...(opts.sitesEnv ? { env: opts.sitesEnv } : {}),
  });
  sites.svc.deps.peers.setEndpoint('content', content.url);
  content.svc.deps.peers.setEndpoint('sites', sites.url);
  const orgAdmin = opts.orgAdmin
    ? await startTestService(orgAdminService, loadOrgAdminConfig, db, opts.bus ? { bus: opts.bus } : {})
    : undefined;
  if (orgAdmin) content.svc.deps.peers.setEndpoint('org-admin', orgAdmin.url);
  return {
    db,
    sites,
    content,
    close: async () => {
      await orgAdmin?.close();
      await sites.close();
      await content.close();
      await db.drop();
    },
  };
}

/** A NATS JetStream bus on a stream of the test's own (kit `createTestNatsBus`). */
export type TestNatsBus = Awaited<ReturnType<typeof createTestNatsBus>>;

/**
 * For tests over real NATS JetStream (skipped without it: kit `natsAvailable`): the platform of
 * `startSitesAndContent`, content publishing on a stream of the test's own, sites reading it over a connection of its
 * own, as in distributed mode. Closing it deletes the stream.
 */
export async function startSitesAndContentOverNats(
  label: string,
): Promise<SitesPlatform & { contentBus: TestNatsBus }> {
  const contentBus = await createTestNatsBus();
  const sitesEnv = {
    NATS_URL: TEST_NATS_URL,
    NATS_STREAM: contentBus.streamName,
    NATS_SUBJECT_PREFIX: contentBus.prefix,
  };
  const platform = await startSitesAndContent(label, { contentBus, sitesEnv });
  return {
    ...platform,
    contentBus,
    close: async () => {
      await platform.close();
      await contentBus.cleanup();
    },
  };
}

/**
 * For a test file: the platform of `startSitesAndContent` (on a new in-process bus with `inProcessBus`), started before
 * its tests and closed after them. The object returned is filled in by the `beforeAll` hook, so read its fields only
 * inside tests and hooks.
 */
export function useSitesAndContent(
  label: string,
  opts: PlatformOptions & { inProcessBus?: boolean } = {},
): SitesPlatform {
  const platform = {} as SitesPlatform;
  let bus: InProcessBus | undefined;
  beforeAll(async () => {
    bus = opts.inProcessBus ? new InProcessBus(testLogger()) : undefined;
    Object.assign(platform, await startSitesAndContent(label, bus ? { ...opts, bus } : opts));
  });
  afterAll(async () => {
    await platform.close?.();
    await bus?.close();
  });
  return platform;
}

/** The actors of most tests: an admin, a creator and a reader of `org`, and an admin of `elsewhere` (a stranger). */
export function orgActors(org: string, elsewhere: string) {
  return {
    admin: userActor('admin', [{ organization: org, role: 'admin' }]),
    creator: userActor('creator', [{ organization: org, role: 'create' }]),
    reader: userActor('reader', [{ organization: org, role: 'read' }]),
    stranger: userActor('stranger', [{ organization: elsewhere, role: 'admin' }]),
  };
}

/**
 * A space of `org` whose live revision holds these pages (markdown), written by `as` in a change request merged into
 * it; resolves to the space's id.
 */
export async function spaceWithPages(
  p: Pick<SitesPlatform, 'content'>,
  { org, title, as }: { org: string; title: string; as: Actor },
  pages: { title: string; markdown: string }[],
): Promise<string> {
  const space = await buildSpace(p.content, { org, title, as });
  const cr = await p.content.call(ops.createChangeRequest, { spaceId: space.id, subject: 'Write' }, as);
  const changes = pages.map((pg) => ({
    operation: 'insert_page',
    title: pg.title,
    document: { markdown: pg.markdown },
  }));
  await p.content.call(
    ops.updateChangeRequestContent,
    { spaceId: space.id, changeRequestId: cr.id, changes } as never,
    as,
  );
  await p.content.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, as);
  return space.id;
}

/** A command on a site's structure as the operations run it: the site and its tree loaded in one transaction. */
export const onSiteStructure = <T>(
  p: Pick<SitesPlatform, 'sites'>,
  siteId: string,
  fn: (tx: EntityManager, x: { site: ISite; tree: SiteTree }) => T,
) =>
  p.sites.em().transactional(async (tx) => {
    const site = await tx.findOneOrFail(Site, { id: siteId });
    return fn(tx, { site, tree: await SiteTree.load(tx, siteId) });
  });

/** The reason and the message of the domain error `work` fails with. */
export const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
