import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { type Installation, type Integration, integrations } from '../../api/integrations.ts';
import { useLoad } from '../../api/use.ts';
import { targetLabel } from './fields.ts';
import { PublishForm } from './PublishForm.tsx';
import '../openapi/admin.css';

interface Listed {
  title: string;
  admin: boolean;
  all: Integration[];
  /** The integrations installed in this organization, with their installation for its admins (who alone read it). */
  installed: Map<string, Installation | undefined>;
}

/**
 * `/o/{org}/integrations`: the integrations a member can see (`listIntegrations`: the public ones and those of their
 * organizations), those installed here first (`listOrganizationIntegrations`; for its admins, each one's installation
 * from `listIntegrationInstallations`), those this
 * organization publishes, and, for its admins, a form publishing a new one (`publishIntegration`).
 */
export default function IntegrationsList({ org }: { org: string }) {
  const id = useId();
  const [, go] = useLocation();
  const [filter, setFilter] = useState('');
  const data = useLoad(async (): Promise<Listed> => {
    const [o, listed, here] = await Promise.all([
      api.organization(org),
      integrations.list(),
      integrations.installedIn(org),
    ]);
    const installed = new Map<string, Installation | undefined>(here.map((it) => [it.name, undefined]));
    if (o.permissions.admin)
      await Promise.all(
        here.map(async (it) => {
          installed.set(
            it.name,
            (await integrations.installations(it.name)).find((x) => x.target.organization === org),
          );
        }),
      );
    // An installed integration another organization keeps private is not in `listIntegrations`.
    const all = [...listed, ...here.filter((it) => !listed.some((l) => l.name === it.name))];
    return { title: o.title, admin: o.permissions.admin, all, installed };
  }, `integrations:${org}`);
  const d = data.data;
  const q = filter.trim().toLowerCase();
  const shown = (d?.all ?? []).filter(
    (it) => !q || it.title.toLowerCase().includes(q) || it.name.toLowerCase().includes(q),
  );
  const groups: [string, string, Integration[]][] = d
    ? [
        ['here', `Installed in ${d.title}`, shown.filter((it) => d.installed.has(it.name))],
        [
          'ours',
          `Published by ${d.title}, not installed`,
          shown.filter((it) => it.owner.id === org && !d.installed.has(it.name)),
        ],
        ['others', 'Other integrations', shown.filter((it) => it.owner.id !== org && !d.installed.has(it.name))],
      ]
    : [];
  return (
    <section className="settings">
      <nav aria-label="Organization" className="settings-nav">
        <Link href={`/o/${org}`}>← Back to the organization</Link>
      </nav>
      <h1>Integrations</h1>
      {data.error && <p role="alert">{data.error.message}</p>}
      {!d && !data.error && <p aria-live="polite">Loading the integrations…</p>}
      {d && (
        <>
          {!d.admin && (
            <p className="muted">
              Only the organization's admins install integrations and configure its installations.
            </p>
          )}
          <div className="field">
            <label htmlFor={`${id}-filter`}>Find an integration by its title or name</label>
            <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </div>
          {groups.map(([key, heading, list]) => (
            <div key={key}>
              <h2 id={`${id}-${key}`}>{heading}</h2>
              {list.length === 0 ? (
                <p className="muted">None{q ? ' matches' : ''}.</p>
              ) : (
                <ul className="settings-list" aria-labelledby={`${id}-${key}`}>
                  {list.map((it) => (
                    <li key={it.name}>
                      <span className="who">
                        <Link href={`/o/${org}/integrations/${it.name}`}>{it.title}</Link> <code>{it.name}</code>
                        <br />
                        <span className="muted">{it.description}</span>
                      </span>
                      <span>
                        {d.installed.has(it.name)
                          ? `Installed${d.installed.get(it.name) ? `: ${d.installed.get(it.name)?.status}` : ''}`
                          : `${it.visibility}, for ${targetLabel(it.target).toLowerCase()}`}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
          {d.admin ? <PublishForm org={org} onPublished={(it) => go(`/o/${org}/integrations/${it.name}`)} /> : null}
        </>
      )}
    </section>
  );
}
