import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/endpoints.ts';
import { type Integration, integrations } from '../api/integrations.ts';
import { useAction, useLoad } from '../api/use.ts';
import { targetLabel } from './integrations/fields.ts';
import { InstallationPanel } from './integrations/Installation.tsx';
import { PublishForm } from './integrations/PublishForm.tsx';
import { Confirm } from './settings/common.tsx';
import './openapi/admin.css';

/**
 * `/integrations/{name}` (an integration's `urls.app`) and `/o/{org}/integrations/{name}` (its installation's): the
 * integration (`getIntegrationByName`) and, in an organization, its installation there (`listIntegrationInstallations`):
 * an admin installs it (`installIntegration`), configures it and uninstalls it (Installation.tsx). The admins of its
 * owner publish a new version (`publishIntegration`) or unpublish it (`unpublishIntegration`).
 */
export default function IntegrationScreen({ name, org }: { name: string; org?: string }) {
  const i = useLoad(() => integrations.get(name), `integration:${name}`);
  const it = i.data;
  return (
    <section className="settings">
      <nav aria-label="Integration" className="settings-nav">
        <Link href={org ? `/o/${org}/integrations` : '/'}>
          {org ? '← The integrations of the organization' : '← Your organizations'}
        </Link>
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
            <dt>Version</dt>
            <dd>{it.version}</dd>
            <dt>Visibility</dt>
            <dd>{it.visibility}</dd>
            <dt>Installs in</dt>
            <dd>{targetLabel(it.target).toLowerCase()}</dd>
            <dt>Permissions</dt>
            <dd>{it.scopes.length ? it.scopes.join(', ') : 'none'}</dd>
            <dt>Owner</dt>
            <dd>
              <Owner id={it.owner.id} />
            </dd>
          </dl>
          {it.summary && <p className="muted">{it.summary}</p>}
          {org ? <HereSection org={org} integration={it} /> : <Organizations integration={it} />}
          {it.permissions.admin && <OwnerSection integration={it} onChanged={i.reload} />}
        </>
      )}
    </section>
  );
}

/**
 * The organization owning the integration: its title, linked, when the user can read it (a member: `getOrganizationById`);
 * its ID otherwise (another organization's, which answers 404).
 */
function Owner({ id }: { id: string }) {
  const org = useLoad(() => api.organization(id), `organization:${id}`);
  if (org.data) return <Link href={`/o/${id}`}>{org.data.title}</Link>;
  return <code>{id}</code>;
}

/** The installation in `org`: install it, or configure and uninstall it. */
function HereSection({ org, integration: it }: { org: string; integration: Integration }) {
  const installs = useLoad(() => integrations.installations(it.name), `installations:${it.name}:${org}`);
  const here = installs.data?.find((x) => x.target.organization === org);
  const action = useAction();
  const install = async () => {
    if (await action.run(() => integrations.install(it.name, org))) installs.reload();
  };
  return (
    <>
      <h2>In this organization</h2>
      {installs.error && <p role="alert">{installs.error.message}</p>}
      {installs.data &&
        (here ? (
          <InstallationPanel
            // A new form for a new installation (its values are the form's starting point; a save keeps them).
            key={here.id}
            integration={it}
            installation={here}
            onChanged={installs.reload}
          />
        ) : it.permissions.install ? (
          <>
            <p>Not installed here.</p>
            {it.target === 'site' && (
              <p className="muted">
                It is made for sites; Quire installs integrations in an organization and on its spaces, not on one site:
                it applies to all of them.
              </p>
            )}
            {it.target === 'space' && (
              <p className="muted">
                It is made for spaces: install it here, then choose the spaces it is installed on.
              </p>
            )}
            <div className="actions-row">
              <button type="button" onClick={() => void install()} disabled={action.busy}>
                Install {it.title}
              </button>
            </div>
          </>
        ) : (
          <p>Not installed here, or only the organization's admins can see its installation.</p>
        ))}
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
    </>
  );
}

/** Out of an organization (`/integrations/{name}`): where the user may install or configure it. */
function Organizations({ integration: it }: { integration: Integration }) {
  const orgs = useLoad(() => api.organizations(), 'organizations');
  return (
    <>
      <h2 id="integration-orgs">In your organizations</h2>
      {orgs.error && <p role="alert">{orgs.error.message}</p>}
      {orgs.data && (
        <ul className="settings-list" aria-labelledby="integration-orgs">
          {orgs.data.map((o) => (
            <li key={o.id}>
              <Link href={`/o/${o.id}/integrations/${it.name}`}>
                {it.title} in {o.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** For the admins of the owner: a new version, or unpublishing (every installation goes with it). */
function OwnerSection({ integration: it, onChanged }: { integration: Integration; onChanged(): void }) {
  const [, go] = useLocation();
  const action = useAction();
  const [published, setPublished] = useState<number>();
  const unpublish = async () => {
    if ((await action.run(() => integrations.unpublish(it.name).then(() => true))) === true)
      go(`/o/${it.owner.id}/integrations`);
  };
  return (
    <>
      <h2>Published by your organization</h2>
      <div className="actions-row">
        <Confirm
          label={`Unpublish ${it.title} and remove all its installations`}
          onConfirm={() => void unpublish()}
          disabled={action.busy}
        />
      </div>
      <div role="alert">{action.error && <p className="error">{action.error}</p>}</div>
      <div role="status">{published && <p>Version {published} published.</p>}</div>
      <PublishForm
        key={it.version}
        org={it.owner.id}
        existing={it}
        onPublished={(x) => {
          setPublished(x.version);
          onChanged();
        }}
      />
    </>
  );
}
