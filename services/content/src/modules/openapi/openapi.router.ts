import { ops } from '@quire/contracts';
import { openAPISpecCreator, openAPISpecDeleter, openAPISpecUpserter } from '../../commands/openapi-spec-writer.ts';
import { implement } from '../../trpc.ts';
import {
  assertOpenAPIAccess,
  assertOpenAPIUpsert,
  loadOpenAPISpecFor,
  loadOpenAPIVersionFor,
} from './openapi-spec.loader.ts';
import { presentOpenAPIContent, presentOpenAPISpec, presentOpenAPIVersion } from './openapi-spec.presenter.ts';
import { openAPISpecRepository } from './openapi-spec.repository.ts';

/**
 * OpenAPI specifications of an organization and their versions. Writing a source only marks the
 * specification `pending`: the `content-openapi-process` job fetches, validates and stores it.
 */
export const openAPIProcedures = {
  listOpenAPISpecs: implement(ops.listOpenAPISpecs, async ({ input, ctx }) => {
    assertOpenAPIAccess(ctx, input.organizationId, 'view');
    return openAPISpecRepository.listInOrg(ctx.em, input.organizationId, input, (s) => presentOpenAPISpec(ctx, s));
  }),

  createOpenAPISpec: implement(ops.createOpenAPISpec, async ({ input, ctx }) => {
    assertOpenAPIAccess(ctx, input.organizationId, 'create');
    return presentOpenAPISpec(ctx, await openAPISpecCreator(ctx.em, input));
  }),

  getOpenAPISpecBySlug: implement(ops.getOpenAPISpecBySlug, async ({ input, ctx }) => {
    const { spec } = await loadOpenAPISpecFor(ctx, input.organizationId, input.specSlug, 'view');
    return presentOpenAPISpec(ctx, spec);
  }),

  createOrUpdateOpenAPISpecBySlug: implement(ops.createOrUpdateOpenAPISpecBySlug, async ({ input, ctx }) => {
    await assertOpenAPIUpsert(ctx, input.organizationId, input.specSlug);
    return presentOpenAPISpec(
      ctx,
      await openAPISpecUpserter(ctx.em, {
        organizationId: input.organizationId,
        slug: input.specSlug,
        source: input.source,
      }),
    );
  }),

  deleteOpenAPISpecBySlug: implement(ops.deleteOpenAPISpecBySlug, async ({ input, ctx }) => {
    const { spec } = await loadOpenAPISpecFor(ctx, input.organizationId, input.specSlug, 'delete');
    openAPISpecDeleter(ctx.em, { spec });
  }),

  listOpenAPISpecVersions: implement(ops.listOpenAPISpecVersions, async ({ input, ctx }) => {
    const { spec } = await loadOpenAPISpecFor(ctx, input.organizationId, input.specSlug, 'view');
    return openAPISpecRepository.listVersions(ctx.em, spec.id, input, (v) => presentOpenAPIVersion(ctx, spec, v));
  }),

  getLatestOpenAPISpecVersion: implement(ops.getLatestOpenAPISpecVersion, async ({ input, ctx }) => {
    const { spec, version } = await loadOpenAPIVersionFor(ctx, input.organizationId, input.specSlug, 'latest');
    return presentOpenAPIVersion(ctx, spec, version);
  }),

  getLatestOpenAPISpecVersionContent: implement(ops.getLatestOpenAPISpecVersionContent, async ({ input, ctx }) => {
    const { version } = await loadOpenAPIVersionFor(ctx, input.organizationId, input.specSlug, 'latest', true);
    return presentOpenAPIContent(ctx, version);
  }),

  getOpenAPISpecVersionById: implement(ops.getOpenAPISpecVersionById, async ({ input, ctx }) => {
    const { spec, version } = await loadOpenAPIVersionFor(ctx, input.organizationId, input.specSlug, input.versionId);
    return presentOpenAPIVersion(ctx, spec, version);
  }),

  getOpenAPISpecVersionContentById: implement(ops.getOpenAPISpecVersionContentById, async ({ input, ctx }) => {
    const { version } = await loadOpenAPIVersionFor(ctx, input.organizationId, input.specSlug, input.versionId, true);
    return presentOpenAPIContent(ctx, version);
  }),
};
