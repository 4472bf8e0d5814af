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

const sourceColumns = (source: OpenAPISpecSource) => ('url' in source ? { sourceUrl: source.url, sourceText: null } : { sourceUrl: null, sourceText: source.text });

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
  if (!spec) throw conflict(`An OpenAPI specification with the slug "${props.slug}" already exists in this organization`);
  return spec;
}

export interface OpenAPISpecSourceUpdaterProps {
  spec: IOpenAPISpec;
  source: OpenAPISpecSource;
  now?: Date;
}

/**
 * A new source (or the same one, to fetch it again): the specification goes back to `pending` and a
 * processing still running for the previous source is discarded (`generation`). Its versions stay.
 */
export function openAPISpecSourceUpdater(em: EntityManager, { spec, source, now = new Date() }: OpenAPISpecSourceUpdaterProps): IOpenAPISpec {
  Object.assign(spec, sourceColumns(source), { processingState: 'pending', generation: spec.generation + 1, leaseUntil: null, updatedAt: now });
  em.persist(spec);
  return spec;
}

/** Removes the specification and its versions (their documents stay in the content-addressed blob store). */
export function openAPISpecDeleter(em: EntityManager, { spec }: { spec: IOpenAPISpec }): void {
  em.remove(spec);
}
