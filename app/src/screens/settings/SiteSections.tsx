import { useId, useState } from 'react';
import { api } from '../../api/endpoints.ts';
import { settingsApi } from '../../api/settings.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Confirm, SpaceForm } from './common.tsx';
import { GroupForm, groupsOf, type Run, StructureList } from './SiteStructure.tsx';

/**
 * A site's structure: its sections (each a space, or several as variants) and groups of sections or, without
 * sections, its spaces. Add a section with a space, rename it, change its path, order it, put it in a group, delete
 * it; add, rename, order and delete groups; add a space to the site.
 */
export function SiteSections({ org, site, onChanged }: { org: string; site: string; onChanged(): void }) {
  const structure = useLoad(() => settingsApi.structure(org, site), `structure:${site}`);
  const siteSpaces = useLoad(() => settingsApi.siteSpaces(org, site), `site-spaces:${site}`);
  const spaces = useLoad(() => api.spaces(org), `spaces:${org}`);
  const action = useAction();
  const id = useId();
  const [said, setSaid] = useState('');
  const reload = () => {
    structure.reload();
    siteSpaces.reload();
    onChanged();
  };
  /** Runs a change of the site's structure: true once done (a form then empties), announced, the structure read again. */
  const change = async (fn: () => Promise<unknown>, done: string) => {
    setSaid('');
    const ok = (await action.run(async () => (await fn(), true))) === true;
    if (ok) {
      setSaid(done);
      reload();
    }
    return ok;
  };
  const run: Run = (fn, done) => void change(fn, done);
  const rootSpaces = (siteSpaces.data ?? []).filter((s) => !s.section);
  const items = structure.data?.type === 'sections' ? structure.data.structure : [];
  const hasSections = items.length > 0;
  const ctx = { org, site, groups: groupsOf(items), run };
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Sections and spaces</h2>
      <p className="muted">
        A section is a part of the site with its own entry in the site's header; each shows a space (or several, as
        variants). The first section takes the site's spaces in; deleting a section removes its spaces from the site.
      </p>
      {(structure.error ?? siteSpaces.error) && <p role="alert">{(structure.error ?? siteSpaces.error)?.message}</p>}
      {hasSections && <StructureList items={items} label="Sections" ctx={ctx} />}
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
                onConfirm={() => run(() => settingsApi.deleteSiteSpace(org, site, s.id), `${s.title} removed.`)}
              />
            </li>
          ))}
        </ul>
      )}
      {!hasSections && structure.data && (
        <SpaceForm
          label="Add a space to the site"
          spaces={spaces.data?.filter((s) => !rootSpaces.some((r) => r.space?.id === s.id))}
          spaceLabel="Space to add to the site"
          noSpace="Choose a space"
          spaceRequired
          submit="Add space"
          busy={action.busy}
          onSubmit={(space) => change(() => settingsApi.addSiteSpace(org, site, space), 'Space added to the site.')}
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
        onSubmit={(space, title) =>
          change(() => settingsApi.addSection(org, site, space, title), `Section ${title} added.`)
        }
      />
      {hasSections && (
        <GroupForm
          busy={action.busy}
          groups={ctx.groups}
          onSubmit={(title, parent) =>
            change(
              () => settingsApi.addGroup(org, site, title, parent || undefined),
              parent
                ? `Group ${title} added in group ${ctx.groups.find((g) => g.id === parent)?.title ?? ''}.`
                : `Group ${title} added.`,
            )
          }
        />
      )}
      <p className="muted" aria-live="polite">
        {said}
      </p>
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}
