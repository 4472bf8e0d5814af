import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { ContentConfig } from './env.ts';
import { openAPIProcessJob } from './jobs/openapi-process.job.ts';
import { parseSettingsOf, warmParsingThreads } from './modules/parsing/text-parser.ts';
import { pdfRenderJob } from './jobs/pdf-render.job.ts';
import { purgeDeletedSpacesJob } from './jobs/purge-deleted-spaces.job.ts';
import { migrations } from './migrations/index.ts';
import { Collection } from './modules/collections/collection.entity.ts';
import { collectionProcedures } from './modules/collections/collections.router.ts';
import { Member } from './modules/members/member.entity.ts';
import { memberEventsConsumer } from './modules/members/member-events.consumer.ts';
import { organizationMergeRulesConsumer } from './modules/merge-rules/organization-rules.consumer.ts';
import { OpenAPISpec, OpenAPISpecVersion } from './modules/openapi/openapi-spec.entity.ts';
import { openAPIProcedures } from './modules/openapi/openapi.router.ts';
import { Revision, Space } from './modules/spaces/space.entity.ts';
import { spaceProcedures } from './modules/spaces/spaces.router.ts';
import { spaceInternalProcedures } from './modules/spaces/spaces-internal.router.ts';
import { ChangeRequest } from './modules/change-requests/change-request.entity.ts';
import { changeRequestProcedures } from './modules/change-requests/change-requests.router.ts';
import { changeRequestContentProcedures } from './modules/change-requests/change-request-content.router.ts';
import { contentProcedures } from './modules/content/content.router.ts';
import { revisionProcedures } from './modules/revisions/revisions.router.ts';
import { publishedContentProcedures } from './modules/content/published-content.router.ts';
import { linksProcedures } from './modules/links/links.router.ts';
import { pageMetaLinksProcedures } from './modules/page-links/meta-links.router.ts';
import { documentReadsProcedures } from './modules/document-reads/document-reads.router.ts';
import { embedProcedures } from './modules/embeds/embeds.router.ts';
import { reusableContentProcedures } from './modules/reusable-content/reusable-content.router.ts';
import { importProcedures } from './modules/import/import.router.ts';
import { searchProcedures } from './modules/search/search.router.ts';
import { searchEventsConsumer } from './modules/search/search-events.consumer.ts';
import { searchIndexJob } from './jobs/search-index.job.ts';
import {
  ChangeRequestContributor,
  ChangeRequestReview,
  ChangeRequestReviewer,
} from './modules/change-requests/reviews.entity.ts';
import { changeRequestReviewProcedures } from './modules/change-requests/reviews.router.ts';
import { Comment, CommentReply } from './modules/comments/comment.entity.ts';
import { commentProcedures } from './modules/comments/comments.router.ts';
import { PdfExport } from './modules/pdf/pdf-export.entity.ts';
import { resolvePdfDownload } from './modules/pdf/pdf-exporter.ts';
import { pdfProcedures } from './modules/pdf/pdf.router.ts';
import { gitProcedures } from './modules/git/git.router.ts';
import { gitSyncJob } from './jobs/git-sync.job.ts';
import { gitEventsConsumer } from './modules/git/git-events.consumer.ts';
import { CollectionGrant, SpaceGrant, TeamMemberView } from './modules/permissions/grant.entity.ts';
import { collectionPermissionProcedures } from './modules/permissions/collection-permissions.router.ts';
import { permissionEventsConsumer } from './modules/permissions/permission-events.consumer.ts';
import { spacePermissionProcedures } from './modules/permissions/space-permissions.router.ts';
import { CollabDocument } from './modules/collab/collab-document.entity.ts';
import { collabUpgrades } from './modules/collab/collab-server.ts';
import { editorConversion } from './modules/collab/editor-conversion.ts';
import { serviceRouter } from './trpc.ts';

export const contentRouter = serviceRouter('content', ServiceOperations.content, {
  ...spaceProcedures,
  ...spaceInternalProcedures,
  ...collectionProcedures,
  ...changeRequestProcedures,
  ...openAPIProcedures,
  ...changeRequestContentProcedures,
  ...contentProcedures,
  ...revisionProcedures,
  ...publishedContentProcedures,
  ...linksProcedures,
  ...pageMetaLinksProcedures,
  ...documentReadsProcedures,
  ...embedProcedures,
  ...reusableContentProcedures,
  ...importProcedures,
  ...searchProcedures,
  ...changeRequestReviewProcedures,
  ...commentProcedures,
  ...pdfProcedures,
  ...gitProcedures,
  ...spacePermissionProcedures,
  ...collectionPermissionProcedures,
});

/** Spaces, collections and their content. */
export const contentService: ServiceDefinition<ContentConfig> = {
  name: 'content',
  schema: 'content',
  entities: [
    Space,
    Revision,
    Collection,
    Member,
    ChangeRequest,
    ChangeRequestReviewer,
    ChangeRequestReview,
    ChangeRequestContributor,
    Comment,
    CommentReply,
    OpenAPISpec,
    OpenAPISpecVersion,
    PdfExport,
    SpaceGrant,
    CollectionGrant,
    TeamMemberView,
    CollabDocument,
  ],
  migrations,
  router: contentRouter,
  consumers: ({ orm, config }) => [
    memberEventsConsumer(orm),
    permissionEventsConsumer(orm),
    organizationMergeRulesConsumer(orm),
    searchEventsConsumer(orm, config.QUIRE_SEARCH_CONFIG),
    gitEventsConsumer(orm),
  ],
  jobs: (deps) => {
    // The parsing threads load their parsers while the service starts, not during its first write.
    warmParsingThreads(parseSettingsOf(deps.config));
    return [
      purgeDeletedSpacesJob(deps),
      openAPIProcessJob(deps),
      pdfRenderJob(deps),
      searchIndexJob(deps),
      gitSyncJob(deps),
    ];
  },
  // Live collaboration on change requests' pages (`/v1/collab`, forwarded by the gateway).
  upgrades: collabUpgrades(editorConversion),
  // PDF exports too large to render while their request waits are handed out as links to be resolved once rendered.
  deferredDownloads:
    ({ orm, config }) =>
    (ref) =>
      resolvePdfDownload({ em: orm.em, config }, ref),
};
