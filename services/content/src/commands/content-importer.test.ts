import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildSpace, orgAdmin, useTestService, useWebSite } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { editContent } from '../modules/change-requests/content-edit.fixtures.ts';
import { ACME_DOCS, crawlLimits, LOGO, localFetch } from '../modules/import/import.fixtures.ts';
import { crawlWebsite, type CrawledSite } from '../modules/import/website-crawler.ts';
import { textParser } from '../modules/parsing/text-parser.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { contentImporter } from './content-importer.ts';

const ORG = 'imports';
const t = useTestService(contentService, loadContentConfig, { label: 'content-importer' });
const web = useWebSite(ACME_DOCS);
let crawled: CrawledSite;
beforeAll(async () => {
  crawled = await crawlWebsite(`${web.origin}/docs/`, localFetch, crawlLimits());
});

const importInto = (spaceId: string, crId?: string) =>
  t.em().transactional(async (tx: EntityManager) =>
    contentImporter(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      changeRequest: crId ? await tx.findOneOrFail(ChangeRequest, { id: crId }) : undefined,
      site: crawled,
      userId: 'importer',
      blobs: t.svc.deps.blobs,
      // The default threads, with a budget that a machine running other suites at once does not exceed.
      parse: textParser().session(30_000),
    }),
  );
const treeOf = (spaceId: string, revisionId: string) => revisionRepository.treeInSpace(t.em(), spaceId, revisionId);
const topSlugs = async (spaceId: string, revisionId: string) =>
  [...(await treeOf(spaceId, revisionId)).pages.values()]
    .filter((p) => p.parentId === null)
    .map((p) => p.slug)
    .sort();

describe('contentImporter', () => {
  it('into a space: one change request of its own, "Import of <url>", created and merged, the pages and images live', async () => {
    const space = await buildSpace(t, { org: ORG, as: orgAdmin(ORG) });
    const result = await importInto(space.id);
    expect(result).toEqual({
      revision: expect.any(String),
      importedResources: crawled.importedResources,
      totalResources: crawled.totalResources,
    });
    const live = await t.em().findOneOrFail(Space, { id: space.id });
    expect(live.revisionId).toBe(result.revision);
    const [cr] = await t.em().find(ChangeRequest, { spaceId: space.id });
    expect(cr).toMatchObject({ status: 'merged', subject: `Import of ${crawled.url}`, createdBy: 'importer' });
    const tree = await treeOf(space.id, result.revision);
    expect([...tree.pages.values()].map((p) => p.title).sort()).toEqual([
      'API',
      'Acme Docs',
      'Authentication',
      'FAQ',
      'Setup',
      'Tokens',
    ]);
    const logo = [...tree.files.values()].find((f) => f.name === 'logo.png')!;
    expect(logo).toMatchObject({ contentType: 'image/png', size: LOGO.length });
    expect((await t.svc.deps.blobs.get(logo.blobKey))!.bytes.equals(LOGO)).toBe(true);
    expect(
      (await t.outboxEvents('change-request.merged')).map((e) => (e.data as { changeRequest: string }).changeRequest),
    ).toContain(cr!.id);
  });

  it('into a change request: only it changes, the pages appended beside those at the top level with free slugs', async () => {
    const space = await buildSpace(t, { org: ORG, as: orgAdmin(ORG) });
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'insert_page', title: 'Setup', document: {} }],
      'writer',
    );
    const spaceRevision = (await t.em().findOneOrFail(Space, { id: space.id })).revisionId;
    const result = await importInto(space.id, cr.id);
    const after = await t.em().findOneOrFail(ChangeRequest, { id: cr.id });
    expect(after.revisionId).toBe(result.revision);
    expect(after.status).toBe('draft');
    expect((await t.em().findOneOrFail(Space, { id: space.id })).revisionId).toBe(spaceRevision);
    expect(await topSlugs(space.id, result.revision)).toEqual(['acme-docs', 'api', 'faq', 'setup', 'setup-2']);
  });
});
