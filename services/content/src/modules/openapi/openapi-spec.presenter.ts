import type {
  Actor,
  OpenAPISpec as OpenAPISpecDto,
  OpenAPISpecContent,
  OpenAPISpecVersion as OpenAPISpecVersionDto,
} from '@quire/contracts';
import type { DownloadLinks, PublicUrls } from '@quire/kit';
import type { IOpenAPISpec, IOpenAPISpecVersion } from './openapi-spec.entity.ts';
import { openAPISpecPolicy } from './openapi-spec.policy.ts';

export interface PresentContext {
  actor: Actor;
  urls: PublicUrls;
}

const specPath = (s: Pick<IOpenAPISpec, 'organizationId' | 'slug'>) => `/orgs/${s.organizationId}/openapi/${s.slug}`;

/** A specification as the caller sees it (`permissions` from the caller's level in the organization). */
export function presentOpenAPISpec(ctx: PresentContext, s: IOpenAPISpec): OpenAPISpecDto {
  const failed = s.lastProcessErrorCode != null;
  return {
    object: 'openapi-spec',
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    slug: s.slug,
    ...(s.sourceUrl != null ? { sourceURL: s.sourceUrl } : {}),
    processingState: s.processingState,
    ...(s.lastVersionId != null ? { lastVersion: s.lastVersionId } : {}),
    ...(s.lastProcessedAt ? { lastProcessedAt: s.lastProcessedAt.toISOString() } : {}),
    ...(s.lastProcessErrorCode != null ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
    ...(failed
      ? {
          lastProcessedErrors: [
            { code: s.lastProcessErrorCode!, message: s.lastProcessErrorMessage ?? s.lastProcessErrorCode! },
          ],
        }
      : {}),
    lastProcessedErrorCount: failed ? 1 : 0,
    permissions: openAPISpecPolicy.permissions(openAPISpecPolicy.role(ctx.actor, s)),
    urls: { location: ctx.urls.api(specPath(s)), app: ctx.urls.page(`/o/${s.organizationId}/openapi/${s.slug}`) },
  };
}

/** A version: `url` is where its document came from (its content in the API for a specification given as text). */
export function presentOpenAPIVersion(
  ctx: PresentContext,
  spec: IOpenAPISpec,
  v: IOpenAPISpecVersion,
): OpenAPISpecVersionDto {
  const location = ctx.urls.api(`${specPath(spec)}/versions/${v.id}`);
  return {
    object: 'openapi-spec-version',
    id: v.id,
    createdAt: v.createdAt.toISOString(),
    url: v.sourceUrl ?? `${location}/content`,
    urls: { location },
  };
}

/** The content of a version: its parsed documents and a signed link to the stored entry document. */
export async function presentOpenAPIContent(
  ctx: { downloads: DownloadLinks },
  v: IOpenAPISpecVersion,
): Promise<OpenAPISpecContent> {
  const url = await ctx.downloads.url({ key: v.blobKey, filename: v.filename, contentType: v.contentType });
  return { filesystem: v.filesystem, url, urls: { source: v.sourceUrl ?? url, public: null } };
}
