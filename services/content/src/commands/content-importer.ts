import type { ImportContentResult } from '@quire/contracts';
import type { BlobStore, EntityManager } from '@quire/kit';
import { mergeBaseOf, type IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { textParser, type ParseSession } from '../modules/parsing/text-parser.ts';
import type { RemoteFile } from '../modules/content/remote-file.ts';
import type { CrawledSite } from '../modules/import/website-crawler.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { childrenByParent } from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { changeRequestMerger } from './change-request-merger.ts';
import { changeRequestCreator } from './change-request-writer.ts';
import { contentEditor, type ContentEditorProps } from './content-editor.ts';

export interface ContentImporterProps {
  space: ISpace;
  /** Import into this change request; without one, into the space (a change request created and merged). */
  changeRequest?: IChangeRequest | undefined;
  /** The website, crawled beforehand (no network I/O happens here). */
  site: CrawledSite;
  userId: string;
  blobs: BlobStore;
  /** Where the site's HTML is converted and its pages read (off the event loop, bounded); default settings when omitted. */
  parse?: ParseSession;
  now?: Date;
}

/** The changes of an import, planned on a parsing thread (`url` names the site in errors); its images' bytes by URL. */
async function planOnThread(
  parse: ParseSession,
  site: CrawledSite,
  topSlugs: Set<string>,
): Promise<{ changes: ImportChanges; files: Map<string, RemoteFile> }> {
  const images = new Map([...site.images].map(([url, { bytes: _bytes, ...image }]) => [url, image]));
  const toPlan = { ...site, scope: { origin: site.scope.origin, folder: site.scope.folder }, images };
  const changes = await parse.run({ kind: 'importPlan', site: toPlan, topSlugs: [...topSlugs] }, 'url');
  const files = new Map(
    [...site.images.values()].map((image) => [image.url, { bytes: image.bytes, contentType: image.contentType }]),
  );
  return { changes, files };
}
type ImportChanges = ContentEditorProps['changes'];

/**
 * Writes a crawled website into a space or a change request: its pages appended at the top level of the content
 * (their tree from the URL paths), its images as files, as one batch of the content editor (one new revision).
 * Into a change request, only that change request changes. Into a space, the import goes through a change
 * request of its own ("Import of <url>"), created and merged at once: the space gets one merge revision, with
 * the change request, its events and `space.content-updated` as for any merge.
 */
export async function contentImporter(em: EntityManager, props: ContentImporterProps): Promise<ImportContentResult> {
  const { space, site, userId } = props;
  const now = props.now ?? new Date();
  const cr =
    props.changeRequest ??
    (await changeRequestCreator(em, { space, createdBy: userId, subject: `Import of ${site.url}`.slice(0, 100), now }));
  const head = await revisionRepository.treeInSpace(em, space.id, cr.revisionId);
  const topSlugs = new Set((childrenByParent(head.pages).get(null) ?? []).map((p) => p.slug));
  const parse = props.parse ?? textParser().session();
  const plan = await planOnThread(parse, site, topSlugs);
  const edited = await contentEditor(em, {
    space,
    changeRequest: cr,
    head,
    changes: plan.changes,
    userId,
    blobs: props.blobs,
    parse,
    revertTarget: (revisionId) => revisionRepository.treeInSpace(em, space.id, revisionId ?? mergeBaseOf(cr)),
    fetchFile: async (url) => {
      const file = plan.files.get(url);
      if (!file) throw new Error('not downloaded by the import');
      return file;
    },
    now,
  });
  const counts = { importedResources: site.importedResources, totalResources: site.totalResources };
  if (props.changeRequest) return { revision: edited.revisionId, ...counts };
  const merged = await changeRequestMerger(em, { space, changeRequest: edited, userId, now });
  return { revision: merged.revision, ...counts };
}
