import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel } from '@quire/kit';

/** What decides access to a specification: its organization, and for a reader whether its site uses it. */
export interface OpenAPISpecFacts {
  organizationId: string;
  /** A page a reader (published-content token) may read on its site shows the specification (see openapi-spec-usage.ts). */
  usedBySite?: boolean | undefined;
}

/**
 * OpenAPI specifications belong to their organization: members read them, `create` and above (the
 * Organization's `permissions.createOpenAPISpec`) create, update and delete them. Guests are members
 * without a role: they see that specifications exist (403), outsiders do not (404). A site's reader reads a
 * specification of the site's organization that a page it may read shows (else 404, as for outsiders).
 */
export const openAPISpecPolicy = definePolicy({
  resource: 'OpenAPI specification',
  role: (actor: Actor, spec: OpenAPISpecFacts) =>
    actor.kind === 'reader'
      ? actor.reader.organization === spec.organizationId && spec.usedBySite
        ? 'read'
        : null
      : organizationLevel(actor, spec.organizationId),
  actions: {
    /** GET a specification, its versions and their content; list them. */
    view: 'read',
    /** POST a new specification, or PUT a slug no specification has. */
    create: 'create',
    /** PUT a new source. */
    update: 'create',
    /** DELETE with its versions. */
    delete: 'create',
  },
  refusals: {
    view: 'Viewing OpenAPI specifications needs a role in the organization (guests have none)',
    create: 'Creating an OpenAPI specification needs the `create` role in the organization',
    update: 'Updating an OpenAPI specification needs the `create` role in the organization',
    delete: 'Deleting an OpenAPI specification needs the `create` role in the organization',
  },
  permissions: {
    view: 'read',
    edit: 'create',
  },
});
export type OpenAPISpecAction = keyof typeof openAPISpecPolicy.actions;
