import { notFound, type AccessLevel } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { readerSiteShowsSpec } from './openapi-spec-usage.ts';
import type { IOpenAPISpec, IOpenAPISpecVersion } from './openapi-spec.entity.ts';
import { openAPISpecPolicy, type OpenAPISpecAction } from './openapi-spec.policy.ts';
import { openAPISpecRepository } from './openapi-spec.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'config'>;

/**
 * The caller's level in the organization when it allows `action` on its specifications: checked before
 * looking the slug up, so an outsider learns nothing (404) and a guest is refused (403) whether or not
 * the slug exists.
 */
export function assertOpenAPIAccess(
  ctx: Pick<Ctx, 'actor'>,
  organizationId: string,
  action: OpenAPISpecAction,
): AccessLevel {
  return openAPISpecPolicy.assert(ctx.actor, { organizationId }, action);
}

/** The specification of `slug` the caller may `action` on, with the caller's level: 404 when there is none. */
export async function loadOpenAPISpecFor(
  ctx: Ctx,
  organizationId: string,
  slug: string,
  action: OpenAPISpecAction,
): Promise<{ spec: IOpenAPISpec; level: AccessLevel }> {
  const level = assertOpenAPIAccess(ctx, organizationId, action);
  const spec = await openAPISpecRepository.findBySlug(ctx.em, organizationId, slug);
  if (!spec) throw notFound('OpenAPI specification');
  return { spec, level };
}

/**
 * For PUT: the caller may update the specification of `slug`, or create it when there is none (the refusal
 * names what the PUT would have done). Whichever happens is decided by the upsert itself.
 */
export async function assertOpenAPIUpsert(ctx: Ctx, organizationId: string, slug: string): Promise<void> {
  assertOpenAPIAccess(ctx, organizationId, 'view');
  const exists = await openAPISpecRepository.existsBySlug(ctx.em, organizationId, slug);
  assertOpenAPIAccess(ctx, organizationId, exists ? 'update' : 'create');
}

/**
 * The specification of `slug` a reader (published-content token) may view: one of its site's organization that a
 * page it may read on the site shows (evaluated against its claims); 404 otherwise, whether or not it exists.
 */
async function loadOpenAPISpecForReader(ctx: Ctx, organizationId: string, slug: string): Promise<IOpenAPISpec> {
  const reader = ctx.actor.kind === 'reader' ? ctx.actor.reader : null;
  const spec =
    reader?.organization === organizationId
      ? await openAPISpecRepository.findBySlug(ctx.em, organizationId, slug)
      : null;
  const usedBySite = !!spec && !!reader && (await readerSiteShowsSpec(ctx, reader, slug));
  openAPISpecPolicy.assert(ctx.actor, { organizationId, usedBySite }, 'view');
  if (!spec) throw notFound('OpenAPI specification');
  return spec;
}

/** A version of a specification the caller may view (`latest` or an id); with its parsed documents when `content`. */
export async function loadOpenAPIVersionFor(
  ctx: Ctx,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
  content = false,
): Promise<{ spec: IOpenAPISpec; version: IOpenAPISpecVersion }> {
  const spec =
    ctx.actor.kind === 'reader'
      ? await loadOpenAPISpecForReader(ctx, organizationId, slug)
      : (await loadOpenAPISpecFor(ctx, organizationId, slug, 'view')).spec;
  const id = versionId === 'latest' ? spec.lastVersionId : versionId;
  const version = id
    ? await (content ? openAPISpecRepository.findVersionWithContent : openAPISpecRepository.findVersion)(
        ctx.em,
        spec.id,
        id,
      )
    : null;
  if (!version) throw notFound('OpenAPI specification version');
  return { spec, version };
}
