import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { spaceId } from '../params.ts';
import {
  ExportToGitRepositorySchema,
  GitConnectionSchema,
  GitHookSchema,
  GitSyncStateSchema,
  ImportGitRepositorySchema,
  UpdateGitConnectionSchema,
} from '../schemas/git.ts';
import { SPACE, singletonOps } from './resources.ts';

const op = operationsOf('content', { tags: ['space-git'] });

export const importGitRepository = op({
  id: 'git.import',
  input: z.object({ spaceId, ...ImportGitRepositorySchema.shape }),
  output: z.void(),
  http: {
    route: 'POST /spaces/{spaceId}/git/import',
    status: 204,
    operationId: 'importGitRepository',
    summary:
      "Pull content into a space from a Git repository in GitBook's format (queued: runs in the background after the 204)",
  },
});

export const exportToGitRepository = op({
  id: 'git.export',
  input: z.object({ spaceId, ...ExportToGitRepositorySchema.shape }),
  output: z.void(),
  http: {
    route: 'POST /spaces/{spaceId}/git/export',
    status: 204,
    operationId: 'exportToGitRepository',
    summary:
      "Push the space's content to a Git repository in GitBook's format, as one commit (queued: runs in the background after the 204)",
  },
});

export const getSpaceGitInfo = op({
  id: 'git.get',
  input: z.object({ spaceId }),
  output: GitSyncStateSchema,
  http: {
    route: 'GET /spaces/{spaceId}/git/info',
    operationId: 'getSpaceGitInfo',
    summary: 'Get the Git Sync state of a space (404 when it has none)',
  },
});

const connection = singletonOps(op, {
  noun: 'gitConnection',
  in: SPACE,
  path: 'git/connection',
  item: GitConnectionSchema,
});

export const getSpaceGitConnection = connection.get(
  'getSpaceGitConnection',
  "Quire-specific (not in GitBook's API): get the space's continuous Git sync connection (404 when none)",
);

export const updateSpaceGitConnection = connection.upsert(
  'updateSpaceGitConnection',
  "Quire-specific (not in GitBook's API): connect the space to a Git repository and branch, kept in step both ways (merges export; new commits import, by polling and by signed webhook)",
  UpdateGitConnectionSchema.shape,
  'PUT',
);

export const deleteSpaceGitConnection = connection.delete(
  'deleteSpaceGitConnection',
  "Quire-specific (not in GitBook's API): disconnect the space from its Git repository (the sync state stays)",
  204,
);

/**
 * A Git server's push webhook (`POST /v1/git/hooks/{connectionId}`, served by the gateway, which hands the raw body
 * and signature headers over): verified against the connection's secret, it queues an import.
 */
export const importGitHook = op({
  id: 'gitConnection.importHook',
  access: 'internal',
  type: 'mutation',
  input: GitHookSchema,
  output: z.object({
    queued: z.boolean().describe('Whether an import was queued (false: one is waiting already)'),
    replayed: z
      .boolean()
      .optional()
      .describe('True when the connection received this delivery id before: acknowledged, nothing done'),
  }),
});
