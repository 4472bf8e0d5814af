// Typed calls of the /v1 operations of an organization's OpenAPI specifications (`openapi` tag).
import type { ops } from '@quire/contracts';
import { browserTransport, type In, type Out, request, requestAll, seg, type Transport } from './client.ts';

export type OpenAPISpec = Out<typeof ops.getOpenAPISpecBySlug>;
export type OpenAPISpecVersion = Out<typeof ops.listOpenAPISpecVersions>['items'][number];
export type OpenAPISpecContent = Out<typeof ops.getLatestOpenAPISpecVersionContent>;
/** Where a specification's document comes from: `{ url }` or `{ text }`. */
export type OpenAPISource = In<typeof ops.createOpenAPISpec>['source'];

export function openAPIOf(t: Transport = browserTransport) {
  const specs = (org: string) => `/orgs/${seg(org)}/openapi`;
  const spec = (org: string, slug: string) => `${specs(org)}/${seg(slug)}`;
  return {
    /** `listOpenAPISpecs`: every specification of the organization, oldest first. */
    list: (org: string) => requestAll<OpenAPISpec>(t, specs(org)),
    get: (org: string, slug: string) => request<OpenAPISpec>(t, 'GET', spec(org, slug)),
    /** `createOpenAPISpec` (409 when the slug is taken). */
    create: (org: string, slug: string, source: OpenAPISource) =>
      request<OpenAPISpec>(t, 'POST', specs(org), { body: { slug, source } }),
    /** `createOrUpdateOpenAPISpecBySlug`: a new source, or the same one fetched again ("Check for updates"). */
    update: (org: string, slug: string, source: OpenAPISource) =>
      request<OpenAPISpec>(t, 'PUT', spec(org, slug), { body: { source } }),
    remove: (org: string, slug: string) => request<void>(t, 'DELETE', spec(org, slug)),
    /** `listOpenAPISpecVersions`, newest first. */
    versions: (org: string, slug: string) => requestAll<OpenAPISpecVersion>(t, `${spec(org, slug)}/versions`),
    /** `getOpenAPISpecVersionContentById`: the parsed documents of a version. */
    content: (org: string, slug: string, version: string) =>
      request<OpenAPISpecContent>(t, 'GET', `${spec(org, slug)}/versions/${seg(version)}/content`),
  };
}

export const openAPI = openAPIOf();
