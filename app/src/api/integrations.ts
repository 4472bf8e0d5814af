// Typed calls of the /v1 operations of integrations and their installations (`integrations` tag).
import type { ops } from '@quire/contracts';
import { ApiError, browserTransport, type In, type Out, request, requestAll, seg, type Transport } from './client.ts';

export type Integration = Out<typeof ops.getIntegrationByName>;
export type Installation = Out<typeof ops.listIntegrationInstallations>['items'][number];
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
  };
}

export const integrations = integrationsOf();
