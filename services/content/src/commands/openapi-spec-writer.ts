import type { OpenAPISpecSource } from '@quire/contracts';
import { conflict, newId, type EntityManager } from '@quire/kit';
import type { IOpenAPISpec } from '../modules/openapi/openapi-spec.entity.ts';
import { openAPISpecRepository } from '../modules/openapi/openapi-spec.repository.ts';

export interface OpenAPISpecCreatorProps {
  organizationId: string;
  slug: string;
  source: OpenAPISpecSource;
  now?: Date;
}

const sourceColumns = (source: OpenAPISpecSource) =>
  'url' in source ? { sourceUrl: source.url, sourceText: null } : { sourceUrl: null, sourceText: source.text };

/**
 * A new specification, `pending`: the processing job picks it up once the transaction committed (409 when
 * the organization already has the slug).
 */
export async function openAPISpecCreator(em: EntityManager, props: OpenAPISpecCreatorProps): Promise<IOpenAPISpec> {
  const spec = await openAPISpecRepository.insertIfSlugFree(em, {
    id: newId(),
    organizationId: props.organizationId,
    slug: props.slug,
    ...sourceColumns(props.source),
    now: props.now ?? new Date(),
  });
  if (!spec)
    throw conflict(`An OpenAPI specification with the slug "${props.slug}" already exists in this organization`);
  return spec;
}

/**
 * PUT: the specification of the slug gets this source, created `pending` when the organization has none. The
 * processing job fetches it again (a new version when the document changed); a processing still running for
 * the previous source is discarded (`generation`). Its versions stay. Identical PUTs at once all succeed.
 */
export async function openAPISpecUpserter(em: EntityManager, props: OpenAPISpecCreatorProps): Promise<IOpenAPISpec> {
  return openAPISpecRepository.upsertBySlug(em, {
    id: newId(),
    organizationId: props.organizationId,
    slug: props.slug,
    ...sourceColumns(props.source),
    now: props.now ?? new Date(),
  });
}

/** Removes the specification and its versions (their documents stay in the content-addressed blob store). */
export function openAPISpecDeleter(em: EntityManager, { spec }: { spec: IOpenAPISpec }): void {
  em.remove(spec);
}
