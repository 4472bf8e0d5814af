import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/endpoints.ts';
import { type ShareLink, type Site, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, SettingsNav, SpaceForm } from './common.tsx';
import { SiteCustomization } from './SiteCustomization.tsx';
import { SiteSections } from './SiteSections.tsx';

const VISIBILITY: Record<Site['visibility'], string> = {
  public: 'Public (indexed by search engines)',
  unlisted: 'Unlisted (anyone with the address)',
  'share-link': 'Share links only',
  'visitor-auth': 'Visitors signed in through your identity provider',
};

/** `/o/{org}/sites` (the list) and `/o/{org}/sites/{site}` (publish, unpublish, share links). */
export default function Sites({ org, site }: { org: string; site?: string }) {
  return (
    <section className="settings">
      <SettingsNav org={org} current="sites" />
      {site ? <SiteScreen org={org} site={site} /> : <SiteList org={org} />}
    </section>
  );
}

function SiteList({ org }: { org: string }) {
  const list = useLoad(() => settingsApi.sites(org), `sites:${org}`);
  return (
    <>
      <h1>Sites</h1>
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.data?.length === 0 && <p>No sites yet.</p>}
      <ul className="settings-list" aria-label="Sites">
        {list.data?.map((s) => (
          <li key={s.id}>
            <span className="who">
              <Link href={`/o/${org}/sites/${s.id}`}>{s.title}</Link>{' '}
              <span className="muted">
                {s.published ? 'published' : 'not published'}, {VISIBILITY[s.visibility]}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <CreateSite org={org} />
    </>
  );
}

/** A new site (`createSite`) with a space to show, then its screen (where it is published). */
function CreateSite({ org }: { org: string }) {
  const spaces = useLoad(() => api.spaces(org), `spaces:${org}`);
  const [, navigate] = useLocation();
  const action = useAction();
  const id = useId();
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Create a site</h2>
      <p className="muted">A site publishes spaces for readers. It is created unpublished: publish it from its page.</p>
      <SpaceForm
        label="Create a site"
        titleLabel="Title of the site"
        spaces={spaces.data}
        spaceLabel="Space to publish"
        noSpace="None yet"
        submit="Create site"
        busy={action.busy}
        onSubmit={async (space, title) => {
          const made = await action.run(() => settingsApi.createSite(org, title, space ? [space] : []));
          if (made) navigate(`/o/${org}/sites/${made.id}`);
          return made !== undefined;
        }}
      />
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}

function SiteScreen({ org, site }: { org: string; site: string }) {
  const s = useLoad(() => settingsApi.site(org, site), `site:${site}`);
  const action = useAction();
  const data = s.data;
  return (
    <>
      <h1>{data?.title ?? 'Site'}</h1>
      <p>
        <Link href={`/o/${org}/sites`}>← All sites</Link>
      </p>
      {s.error && <p role="alert">{s.error.message}</p>}
      {data && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{data.published ? 'Published' : 'Not published'}</dd>
            <dt>Audience</dt>
            <dd>{VISIBILITY[data.visibility]}</dd>
            <dt>Address</dt>
            <dd>
              {data.published && data.visibility !== 'share-link' ? (
                <a href={data.urls.published}>{data.urls.published}</a>
              ) : (
                data.urls.published
              )}
            </dd>
            <dt>Spaces</dt>
            <dd>{data.siteSpaces}</dd>
          </dl>
          {data.permissions.create && (
            <button
              type="button"
              disabled={action.busy}
              onClick={() => void action.run(() => settingsApi.publish(org, site, !data.published)).then(s.reload)}
            >
              {data.published ? 'Unpublish' : 'Publish'} {data.title}
            </button>
          )}
          {action.error && <p role="alert">{action.error}</p>}
          {data.permissions.create && <SiteSections org={org} site={site} onChanged={s.reload} />}
          {data.permissions.create && <SiteCustomization org={org} site={data} />}
          {data.permissions.create && <ShareLinks org={org} site={site} />}
        </>
      )}
    </>
  );
}

function ShareLinks({ org, site }: { org: string; site: string }) {
  const list = useLoad(() => settingsApi.shareLinks(org, site), `share-links:${site}`);
  const [name, setName] = useState('');
  const action = useAction();
  const id = useId();
  const run = (fn: () => Promise<unknown>) => void action.run(fn).then(list.reload);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (await action.run(() => settingsApi.createShareLink(org, site, name.trim()))) {
      setName('');
      list.reload();
    }
  };
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Share links</h2>
      <p className="muted">
        A share link opens the published site to whoever has it, when the site's audience is "Share links only".
      </p>
      {list.error && <p role="alert">{list.error.message}</p>}
      <ul className="settings-list" aria-labelledby={`${id}-h`}>
        {list.data?.map((l) => (
          <ShareLinkRow key={l.id} link={l} run={run} org={org} site={site} />
        ))}
      </ul>
      <form className="create" onSubmit={create} aria-label="Create a share link">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name of the link</label>
          <input id={`${id}-name`} required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <button type="submit" disabled={action.busy}>
          Create share link
        </button>
      </form>
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}

function ShareLinkRow(props: { link: ShareLink; org: string; site: string; run(fn: () => Promise<unknown>): void }) {
  const { link, org, site, run } = props;
  const label = link.name || 'Unnamed link';
  return (
    <li>
      <span className="who">
        <strong>{label}</strong>{' '}
        {link.urls.published ? (
          <input readOnly aria-label={`Address of ${label}`} value={link.urls.published} className="url" />
        ) : (
          <span className="muted">(an address once the site is published)</span>
        )}
      </span>
      <span className="actions">
        <label className="check">
          <input
            type="checkbox"
            checked={link.active}
            onChange={(e) => run(() => settingsApi.updateShareLink(org, site, link.id, { active: e.target.checked }))}
          />
          Active
          <span className="sr-only"> ({label})</span>
        </label>
        <button type="button" onClick={() => run(() => settingsApi.rotateShareLink(org, site, link.id))}>
          New key<span className="sr-only"> for {label}</span>
        </button>
        <Confirm
          label={`Delete ${label}`}
          onConfirm={() => run(() => settingsApi.deleteShareLink(org, site, link.id))}
        />
      </span>
    </li>
  );
}
