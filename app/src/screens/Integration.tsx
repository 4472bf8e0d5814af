import type { ops } from '@quire/contracts';
import { Link } from 'wouter';
import { ApiError, browserTransport, type Out, request, requestAll, seg } from '../api/client.ts';
import { useLoad } from '../api/use.ts';

type Integration = Out<typeof ops.getIntegrationByName>;
type Installation = Out<typeof ops.listIntegrationInstallations>['items'][number];
const integrationOf = (name: string) => request<Integration>(browserTransport, 'GET', `/integrations/${seg(name)}`);
/** The installations the caller may see (an organization's admins: their organizations'); none for the others (403). */
const installationsOf = (name: string) =>
  requestAll<Installation>(browserTransport, `/integrations/${seg(name)}/installations`).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 403) return [];
    throw err;
  });

const TARGETS: Record<Integration['target'], string> = {
  all: 'organizations, spaces and sites',
  organization: 'organizations',
  space: 'spaces',
  site: 'sites',
};

/**
 * `/integrations/{name}` (an integration's `urls.app`) and `/o/{org}/integrations/{name}` (its installation's): the
 * integration (`getIntegrationByName`) and, in an organization, its installation there (`listIntegrationInstallations`).
 * Read-only: integrations are published and installed through the API.
 */
export default function IntegrationScreen({ name, org }: { name: string; org?: string }) {
  const i = useLoad(() => integrationOf(name), `integration:${name}`);
  const installs = useLoad(() => (org ? installationsOf(name) : Promise.resolve([])), `installations:${name}:${org}`);
  const here = org ? installs.data?.find((x) => x.target.organization === org) : undefined;
  const it = i.data;
  return (
    <section className="settings">
      <nav aria-label="Integration" className="settings-nav">
        <Link href={org ? `/o/${org}` : '/'}>{org ? '← Back to the organization' : '← Your organizations'}</Link>
      </nav>
      <h1>{it ? `Integration ${it.title}` : `Integration ${name}`}</h1>
      {i.error && <p role="alert">{i.error.message}</p>}
      {!it && !i.error && <p aria-live="polite">Loading the integration…</p>}
      {it && (
        <>
          <p>{it.description}</p>
          <dl className="facts">
            <dt>Name</dt>
            <dd>
              <code>{it.name}</code>
            </dd>
            <dt>Visibility</dt>
            <dd>{it.visibility}</dd>
            <dt>Installs in</dt>
            <dd>{TARGETS[it.target]}</dd>
            <dt>Permissions</dt>
            <dd>{it.scopes.length ? it.scopes.join(', ') : 'none'}</dd>
            <dt>Owner</dt>
            <dd>
              <Link href={`/o/${it.owner.id}`}>{it.owner.id}</Link>
            </dd>
          </dl>
          {it.summary && <p className="muted">{it.summary}</p>}
        </>
      )}
      {org && (
        <>
          <h2>In this organization</h2>
          {installs.error && <p role="alert">{installs.error.message}</p>}
          {installs.data &&
            (here ? (
              <dl className="facts">
                <dt>Status</dt>
                <dd>{here.status}</dd>
                <dt>Installed</dt>
                <dd>{new Date(here.createdAt).toLocaleString()}</dd>
                <dt>Spaces</dt>
                <dd>{here.space_selection === 'all' ? 'all' : `a selection (${here.spaces})`}</dd>
                <dt>Sites</dt>
                <dd>{here.site_selection === 'all' ? 'all' : 'a selection'}</dd>
              </dl>
            ) : (
              <p>Not installed here, or only the organization's admins can see its installation.</p>
            ))}
        </>
      )}
    </section>
  );
}
