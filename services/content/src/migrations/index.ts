import { SpacesMigration } from './0001-spaces.ts';
import { CollectionsTreeTrashMigration } from './0002-collections-tree-trash.ts';
import { ContentEngineMigration } from './0003-content-engine.ts';
import { OpenAPISpecsMigration } from './0004-openapi-specs.ts';
import { CommentsMigration } from './0005-comments.ts';
import { CommentMentionsMigration } from './0006-comment-mentions.ts';
import { SearchMigration } from './0007-search.ts';
import { PdfExportsMigration } from './0008-pdf-exports.ts';
import { SearchPartitionsMigration } from './0009-search-partitions.ts';
import { ChangeRequestConflictsMigration } from './0010-change-request-conflicts.ts';
import { GitSyncMigration } from './0011-git-sync.ts';
import { GitConnectionsMigration } from './0012-git-connections.ts';
import { PermissionsMigration } from './0013-permissions.ts';
import { MergeRulesMigration } from './0014-merge-rules.ts';
import { GitRedirectsBlobsMigration } from './0016-git-redirects-blobs.ts';
import { TreeOrderKeysMigration } from './0017-tree-order-keys.ts';
import { GitBoundsMigration } from './0018-git-bounds.ts';
import { CollabDocumentsMigration } from './0020-collab-documents.ts';
import { ReusableContentsMigration } from './0021-reusable-contents.ts';
import { SearchReusableContentsMigration } from './0022-search-reusable-contents.ts';
import { SpaceDeletedByMigration } from './0023-space-deleted-by.ts';
import { CommentQuotesMigration } from './0025-comment-quotes.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_spaces', class: SpacesMigration },
  { name: '0002_collections_tree_trash', class: CollectionsTreeTrashMigration },
  { name: '0003_content_engine', class: ContentEngineMigration },
  { name: '0004_openapi_specs', class: OpenAPISpecsMigration },
  { name: '0005_comments', class: CommentsMigration },
  { name: '0006_comment_mentions', class: CommentMentionsMigration },
  { name: '0007_search', class: SearchMigration },
  { name: '0008_pdf_exports', class: PdfExportsMigration },
  { name: '0009_search_partitions', class: SearchPartitionsMigration },
  { name: '0010_change_request_conflicts', class: ChangeRequestConflictsMigration },
  { name: '0011_git_sync', class: GitSyncMigration },
  { name: '0012_git_connections', class: GitConnectionsMigration },
  { name: '0013_permissions', class: PermissionsMigration },
  { name: '0014_merge_rules', class: MergeRulesMigration },
  { name: '0016_git_redirects_blobs', class: GitRedirectsBlobsMigration },
  { name: '0017_tree_order_keys', class: TreeOrderKeysMigration },
  { name: '0018_git_bounds', class: GitBoundsMigration },
  { name: '0020_collab_documents', class: CollabDocumentsMigration },
  { name: '0021_reusable_contents', class: ReusableContentsMigration },
  { name: '0022_search_reusable_contents', class: SearchReusableContentsMigration },
  { name: '0023_space_deleted_by', class: SpaceDeletedByMigration },
  { name: '0025_comment_quotes', class: CommentQuotesMigration },
];
