// Typed calls of the /v1 operations of integrations and their installations (`integrations` tag).
import type { ops } from '@quire/contracts';
import { ApiError, browserTransport, type In, type Out, request, requestAll, seg, type Transport } from './client.ts';

export type Integration = Out<typeof ops.getIntegrationByName>;
export type Installation = Out<typeof ops.listIntegrationInstallations>['items'][number];
export type SpaceInstallation = Out<typeof ops.listIntegrationInstallationSpaces>['items'][number];
export type SiteInstallation = Out<typeof ops.listIntegrationInstallationSites>['items'][number];
/** What `updateIntegrationSpaceInstallation` and `updateIntegrationSiteInstallation` take. */
export type TargetInstallationChange = Omit<
  In<typeof ops.updateIntegrationSpaceInstallation>,
  'integrationName' | 'installationId' | 'spaceId'
>;
export type SpaceIntegrationBlocks = Out<typeof ops.listSpaceIntegrationsBlocks>;
export type IntegrationQuery = Pick<In<typeof ops.listIntegrations>, 'search' | 'owner' | 'target'>;
/** What `publishIntegration` takes besides the name. */
export type Publication = Omit<In<typeof ops.publishIntegration>, 'integrationName'>;
export type InstallationChange = Omit<
  In<typeof ops.updateIntegrationInstallation>,
  'integrationName' | 'installationId'
>;

export function integrationsOf(t: Transport = browserTransport) {
  const one = (name: string) => `/integrations/${seg(name)}`;
  return {
    /** `listIntegrations`: the public ones and those of the caller's organizations (every page). */
    list: (query: IntegrationQuery = {}) => requestAll<Integration>(t, '/integrations', { ...query }),
    /** `listOrganizationIntegrations`: those installed in the organization (any member; every page). */
    installedIn: (org: string) => requestAll<Integration>(t, `/orgs/${seg(org)}/integrations`),
    get: (name: string) => request<Integration>(t, 'GET', one(name)),
    /** `publishIntegration`: a first publication, or a new version by an admin of its organization. */
    publish: (name: string, body: Publication) => request<Integration>(t, 'POST', one(name), { body }),
    /** `unpublishIntegration`: the integration and all its installations are deleted. */
    unpublish: (name: string) => request<void>(t, 'DELETE', one(name)),
    /**
     * `listIntegrationInstallations`: those the caller may see (an organization's admins: their organizations');
     * none for the others (403).
     */
    installations: (name: string) =>
      requestAll<Installation>(t, `${one(name)}/installations`).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 403) return [];
        throw err;
      }),
    install: (name: string, organization: string) =>
      request<Installation>(t, 'POST', `${one(name)}/installations`, { body: { organization } }),
    updateInstallation: (name: string, id: string, body: InstallationChange) =>
      request<Installation>(t, 'PATCH', `${one(name)}/installations/${seg(id)}`, { body }),
    uninstall: (name: string, id: string) => request<void>(t, 'DELETE', `${one(name)}/installations/${seg(id)}`),
    /** `listIntegrationInstallationSpaces` (extended: each item carries the space when the caller can view it). */
    spacesOf: (name: string, id: string) =>
      requestAll<SpaceInstallation>(t, `${one(name)}/installations/${seg(id)}/spaces`, { extended: true }),
    /** `installIntegrationOnSpace`: the installation then manages a selection of spaces. */
    installOnSpace: (name: string, id: string, space: string) =>
      request<SpaceInstallation>(t, 'POST', `${one(name)}/installations/${seg(id)}/spaces`, { body: { space } }),
    uninstallFromSpace: (name: string, id: string, space: string) =>
      request<void>(t, 'DELETE', `${one(name)}/installations/${seg(id)}/spaces/${seg(space)}`),
    /** `getIntegrationSpaceInstallation`: its configuration for the space and its external IDs. */
    spaceInstallation: (name: string, id: string, space: string) =>
      request<SpaceInstallation>(t, 'GET', `${one(name)}/installations/${seg(id)}/spaces/${seg(space)}`),
    /** `updateIntegrationSpaceInstallation`: checked against the integration's `space` configuration. */
    updateSpaceInstallation: (name: string, id: string, space: string, body: TargetInstallationChange) =>
      request<SpaceInstallation>(t, 'PATCH', `${one(name)}/installations/${seg(id)}/spaces/${seg(space)}`, { body }),
    /** `listIntegrationInstallationSites` (extended: each item carries the site when the caller can view it). */
    sitesOf: (name: string, id: string) =>
      requestAll<SiteInstallation>(t, `${one(name)}/installations/${seg(id)}/sites`, { extended: true }),
    /** `installIntegrationOnSite`: the installation then manages a selection of sites. */
    installOnSite: (name: string, id: string, siteId: string) =>
      request<SiteInstallation>(t, 'POST', `${one(name)}/installations/${seg(id)}/sites`, { body: { siteId } }),
    uninstallFromSite: (name: string, id: string, site: string) =>
      request<void>(t, 'DELETE', `${one(name)}/installations/${seg(id)}/sites/${seg(site)}`),
    /** `getIntegrationSiteInstallation`: its configuration for the site and its external IDs. */
    siteInstallation: (name: string, id: string, site: string) =>
      request<SiteInstallation>(t, 'GET', `${one(name)}/installations/${seg(id)}/sites/${seg(site)}`),
    /** `updateIntegrationSiteInstallation`: checked against the integration's `site` configuration. */
    updateSiteInstallation: (name: string, id: string, site: string, body: TargetInstallationChange) =>
      request<SiteInstallation>(t, 'PATCH', `${one(name)}/installations/${seg(id)}/sites/${seg(site)}`, { body }),
    /** `listSpaceIntegrationsBlocks`: the blocks of the integrations installed for a space (any reader of it). */
    blocksOf: (space: string) => request<SpaceIntegrationBlocks>(t, 'GET', `/spaces/${seg(space)}/integration-blocks`),
  };
}

export const integrations = integrationsOf();
