import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/endpoints.ts';
import { type SiteSection, settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, SpaceForm } from './common.tsx';

/**
 * A site's structure: its sections (each a space, or several as variants) or, without sections, its spaces.
 * Add a section with a space, rename it, change its path, delete it; add a space to a section or to the site.
 */
export function SiteSections({ org, site, onChanged }: { org: string; site: string; onChanged(): void }) {
  const sections = useLoad(() => settingsApi.sections(org, site), `sections:${site}`);
  const siteSpaces = useLoad(() => settingsApi.siteSpaces(org, site), `site-spaces:${site}`);
  const spaces = useLoad(() => api.spaces(org), `spaces:${org}`);
  const action = useAction();
  const id = useId();
  const reload = () => {
    sections.reload();
    siteSpaces.reload();
    onChanged();
  };
  const run = (fn: () => Promise<unknown>) => void action.run(fn).then((r) => r !== undefined && reload());
  /** Runs a change of the site's structure from a form: true once done (the form empties), the structure read again. */
  const submit = async (fn: () => Promise<unknown>) => {
    const done = (await action.run(async () => (await fn(), true))) === true;
    if (done) reload();
    return done;
  };
  const rootSpaces = (siteSpaces.data ?? []).filter((s) => !s.section);
  const hasSections = (sections.data?.length ?? 0) > 0;
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Sections and spaces</h2>
      <p className="muted">
        A section is a part of the site with its own entry in the site's header; each shows a space (or several, as
        variants). The first section takes the site's spaces in; deleting a section removes its spaces from the site.
      </p>
      {(sections.error ?? siteSpaces.error) && <p role="alert">{(sections.error ?? siteSpaces.error)?.message}</p>}
      {hasSections && (
        <ul className="settings-list" aria-label="Sections">
          {sections.data?.map((s) => (
            <SectionRow key={s.id} section={s} run={run} org={org} site={site} />
          ))}
        </ul>
      )}
      {rootSpaces.length > 0 && (
        <ul className="settings-list" aria-label="Spaces of the site">
          {rootSpaces.map((s) => (
            <li key={s.id}>
              <span className="who">
                <strong>{s.title}</strong> <span className="muted">/{s.path}</span>
                {s.default && <span className="muted"> (default)</span>}
              </span>
              <Confirm
                label={`Remove ${s.title}`}
                onConfirm={() =>
                  run(async () => {
                    await settingsApi.deleteSiteSpace(org, site, s.id);
                    return true;
                  })
                }
              />
            </li>
          ))}
        </ul>
      )}
      {!hasSections && sections.data && (
        <SpaceForm
          label="Add a space to the site"
          spaces={spaces.data?.filter((s) => !rootSpaces.some((r) => r.space?.id === s.id))}
          spaceLabel="Space to add to the site"
          noSpace="Choose a space"
          spaceRequired
          submit="Add space"
          busy={action.busy}
          onSubmit={(space) => submit(() => settingsApi.addSiteSpace(org, site, space))}
        />
      )}
      <SpaceForm
        label="Add a section"
        titleLabel="Title of the section"
        spaces={spaces.data}
        spaceLabel="Space of the new section"
        noSpace="Choose a space"
        spaceRequired
        submit="Add section"
        busy={action.busy}
        onSubmit={(space, title) => submit(() => settingsApi.addSection(org, site, space, title))}
      />
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}

function SectionRow(props: { section: SiteSection; org: string; site: string; run(fn: () => Promise<unknown>): void }) {
  const { section: s, org, site, run } = props;
  const [title, setTitle] = useState(s.title);
  const [path, setPath] = useState(s.path);
  const id = useId();
  const changed = title.trim() !== s.title || path.trim() !== s.path;
  const save = (e: FormEvent) => {
    e.preventDefault();
    run(() =>
      settingsApi.updateSection(org, site, s.id, {
        ...(title.trim() !== s.title ? { title: title.trim() } : {}),
        ...(path.trim() !== s.path ? { path: path.trim() } : {}),
      }),
    );
  };
  return (
    <li>
      <form className="create" onSubmit={save} aria-label={`Section ${s.title}`}>
        <div className="field">
          <label htmlFor={`${id}-t`}>
            Title<span className="sr-only"> of section {s.title}</span>
          </label>
          <input
            id={`${id}-t`}
            required
            minLength={2}
            maxLength={128}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-p`}>
            Path<span className="sr-only"> of section {s.title}</span>
          </label>
          <input id={`${id}-p`} required maxLength={100} value={path} onChange={(e) => setPath(e.target.value)} />
        </div>
        <button type="submit" disabled={!changed}>
          Save<span className="sr-only"> section {s.title}</span>
        </button>
        <Confirm
          label={`Delete section ${s.title}`}
          onConfirm={() => run(() => settingsApi.deleteSection(org, site, s.id).then(() => true))}
        />
      </form>
      <span className="muted who">
        {s.default ? 'The default section. ' : ''}
        Spaces: {s.siteSpaces.map((x) => x.title).join(', ') || 'none'}
      </span>
    </li>
  );
}
